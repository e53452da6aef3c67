/* The card scanner: reports each tag placed on the reader, once.
 *
 * Every 40 ms the reader wakes any tag in its field, selects it to read its
 * UID (4 or 7 bytes) and halts it. A tag seen again is not reported again;
 * after three polls without an answer it counts as taken away, so putting
 * it back reports it anew. Messages to the host (see protocol.h):
 *   HELLO tactile-scanner proto=1 fw=1.0.0   at start and on HELLO?
 *   CARD <uid hex> <seq>                      a tag was placed
 *   PONG                                      answer to PING
 *   ERR <code> <text>                         something went wrong
 * The sequence number counts CARD messages (wrapping at 65536), so the host
 * sees a lost or repeated message. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "mfrc522.h"
#include "protocol.h"
#include "uart.h"

#define POLL_MS 40
#define GONE_AFTER 3
#define READER_RETRY_MS 1000

static const char HELLO[] = "HELLO tactile-scanner proto=1 fw=" FIRMWARE_VERSION;

static uint8_t present[UID_MAX];
static uint8_t present_length;
static uint8_t misses;
static uint16_t sequence;

static void report(const uint8_t *uid, uint8_t length)
{
    char message[LINE_MAX];
    char *p = message;
    memcpy(p, "CARD ", 5);
    p += 5;
    for (uint8_t i = 0; i < length; i++) {
        static const char hex[] = "0123456789ABCDEF";
        *p++ = hex[uid[i] >> 4];
        *p++ = hex[uid[i] & 0x0F];
    }
    sprintf(p, " %u", sequence);
    /* The number is used even if the host is not reading and the line is
     * dropped: the host then sees the gap and can ask for a new scan. */
    protocol_send(message);
    sequence++;
}

static void poll_reader(void)
{
    uint8_t uid[UID_MAX];
    uint8_t length;
    uint8_t status = rc_wake();
    if (status == RC_TIMEOUT) {
        if (present_length && ++misses >= GONE_AFTER) present_length = 0;
        return;
    }
    if (status != RC_OK || rc_select(uid, &length) != RC_OK) return; /* try again next poll */
    rc_halt();
    misses = 0;
    if (length == present_length && memcmp(uid, present, length) == 0) return;
    memcpy(present, uid, length);
    present_length = length;
    report(uid, length);
}

static void answer(char *line, uint8_t overflowed)
{
    if (overflowed) {
        protocol_send("ERR LONG line longer than 80 characters");
    } else if (!protocol_check(line)) {
        protocol_send("ERR CHECKSUM bad or missing checksum");
    } else if (strcmp(line, "PING") == 0) {
        protocol_send("PONG");
    } else if (strcmp(line, "HELLO?") == 0) {
        protocol_send(HELLO);
    } else {
        protocol_send("ERR UNKNOWN unknown command");
    }
}

int main(void)
{
    clock_init();
    uart_init();
    sei();
    uart_write("\n", 1); /* ends whatever half line the host held from before a reset */
    protocol_send(HELLO);
    uint8_t reader = 0;
    uint32_t next_poll = 0;
    uint32_t next_try = 0;
    char line[LINE_MAX + 1];
    for (;;) {
        int16_t byte;
        while ((byte = uart_read()) >= 0) {
            uint8_t overflowed = 0;
            if (protocol_feed((uint8_t)byte, line, &overflowed)) answer(line, overflowed);
        }
        uint32_t now = clock_ms();
        if (!reader && (int32_t)(now - next_try) >= 0) {
            uint8_t version = rc_init();
            reader = version != 0x00 && version != 0xFF;
            if (!reader) protocol_send("ERR READER no NFC reader answers on SPI");
            next_try = now + READER_RETRY_MS;
        }
        if (reader && (int32_t)(now - next_poll) >= 0) {
            poll_reader();
            next_poll = now + POLL_MS;
        }
    }
}
