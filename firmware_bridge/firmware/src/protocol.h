/* The wire protocol's device side: lines ending in *HH (XOR checksum). */
#ifndef PROTOCOL_H
#define PROTOCOL_H
#include <stdint.h>

#define PROTOCOL_MAJOR 1
#define FIRMWARE_VERSION "1.0.0"
#define LINE_MAX 80

/* Send a message (without checksum or newline): appends *HH and \n.
 * Returns 0 if it was dropped because the host is not reading. */
uint8_t protocol_send(const char *message);
/* Feed one received byte; returns 1 when a whole line is ready in `line`. */
uint8_t protocol_feed(uint8_t byte, char *line, uint8_t *overflowed);
/* Check and strip a received line's checksum; 1 if it is right. */
uint8_t protocol_check(char *line);

#endif
