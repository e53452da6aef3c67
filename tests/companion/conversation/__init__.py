"""Tests of the conversation, companion/conversation/."""
