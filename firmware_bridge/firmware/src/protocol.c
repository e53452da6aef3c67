/* Lines are ASCII, at most 80 characters with the checksum, ended by \n
 * (a \r before it is ignored). The checksum is the XOR of every byte
 * before '*', in two upper-case hex digits. */
#include "protocol.h"

#include <string.h>

#include "uart.h"

static const char HEX[] = "0123456789ABCDEF";

static uint8_t xor_of(const char *text, uint8_t length)
{
    uint8_t sum = 0;
    for (uint8_t i = 0; i < length; i++) sum ^= (uint8_t)text[i];
    return sum;
}

uint8_t protocol_send(const char *message)
{
    char line[LINE_MAX + 2];
    uint8_t length = (uint8_t)strlen(message);
    if (length > LINE_MAX - 3) length = LINE_MAX - 3;
    memcpy(line, message, length);
    uint8_t sum = xor_of(line, length);
    line[length++] = '*';
    line[length++] = HEX[sum >> 4];
    line[length++] = HEX[sum & 0x0F];
    line[length++] = '\n';
    return uart_write(line, length);
}

static uint8_t received;
static uint8_t too_long;

uint8_t protocol_feed(uint8_t byte, char *line, uint8_t *overflowed)
{
    if (byte == '\r') return 0;
    if (byte == '\n') {
        uint8_t ready = !too_long && received > 0;
        *overflowed = too_long;
        line[received] = '\0';
        received = 0;
        too_long = 0;
        return ready || *overflowed;
    }
    if (received >= LINE_MAX) {
        too_long = 1;
        return 0;
    }
    if (byte == 0 || byte > 0x7E || (byte < 0x20 && byte != '\t')) too_long = 1; /* not a line of ours */
    line[received++] = (char)byte;
    return 0;
}

static int8_t hex_value(char c)
{
    if (c >= '0' && c <= '9') return (int8_t)(c - '0');
    if (c >= 'A' && c <= 'F') return (int8_t)(c - 'A' + 10);
    if (c >= 'a' && c <= 'f') return (int8_t)(c - 'a' + 10);
    return -1;
}

uint8_t protocol_check(char *line)
{
    uint8_t length = (uint8_t)strlen(line);
    if (length < 3 || line[length - 3] != '*') return 0;
    int8_t high = hex_value(line[length - 2]);
    int8_t low = hex_value(line[length - 1]);
    if (high < 0 || low < 0) return 0;
    if (xor_of(line, (uint8_t)(length - 3)) != (uint8_t)((high << 4) | low)) return 0;
    line[length - 3] = '\0';
    return 1;
}
