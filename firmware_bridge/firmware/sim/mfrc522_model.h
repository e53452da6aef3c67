/* A model of the MFRC522 NFC reader as seen over SPI, with one ISO 14443-A
 * tag (4- or 7-byte UID) that a test can place on it and take away.
 * Test equipment for the simulated board; not part of the firmware. */
#ifndef MFRC522_MODEL_H
#define MFRC522_MODEL_H
#include <stddef.h>
#include <stdint.h>

enum tag_state { TAG_IDLE, TAG_READY, TAG_ACTIVE, TAG_HALT };

typedef struct mfrc522_model {
    uint8_t regs[64];
    uint8_t fifo[64];
    size_t fifo_length;
    /* the SPI transaction under way */
    int selected;
    int first_byte;
    int reading;
    uint8_t address;
    /* the tag on the reader */
    int tag_present;
    uint8_t uid[10];
    size_t uid_length;
    enum tag_state tag_state;
    int cascade_level;
} mfrc522_model;

void mfrc522_reset(mfrc522_model *m);
void mfrc522_chip_select(mfrc522_model *m, int selected);
uint8_t mfrc522_spi(mfrc522_model *m, uint8_t in);
void mfrc522_place(mfrc522_model *m, const uint8_t *uid, size_t length);
void mfrc522_remove(mfrc522_model *m);
uint16_t mfrc522_crc_a(const uint8_t *data, size_t length);

#endif
