/* The MFRC522 NFC reader on SPI, and the ISO 14443-3 steps to read a UID. */
#ifndef MFRC522_H
#define MFRC522_H
#include <stdint.h>

#define UID_MAX 10

enum rc_status { RC_OK = 0, RC_TIMEOUT, RC_ERROR, RC_COLLISION, RC_CRC, RC_NO_ROOM };

/* Reset and set up the reader; returns its version register (0x91, 0x92,
 * or a clone's value), 0x00 or 0xFF when nothing answers on SPI. */
uint8_t rc_init(void);
/* Wake a tag in the field (WUPA: idle and halted tags answer). */
uint8_t rc_wake(void);
/* Anticollision and select, cascade levels 1 and 2: a 4- or 7-byte UID. */
uint8_t rc_select(uint8_t *uid, uint8_t *length);
/* Halt the selected tag, so it answers again only to the next wake-up. */
void rc_halt(void);

#endif
