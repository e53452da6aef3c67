"""Tests of the Sushi Go! rules core."""
