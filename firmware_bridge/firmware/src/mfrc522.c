/* MFRC522 over SPI (mode 0, MSB first) with SS on PB2 (pin 10) and the
 * reader's reset on PB1 (pin 9). Register access: an address byte
 * (bit 7 set to read, register number in bits 6..1), then data. */
#include "mfrc522.h"

#include <avr/io.h>
#include <string.h>
#include <util/delay.h>

#include "clock.h"

#define REG_COMMAND 0x01
#define REG_COM_IRQ 0x04
#define REG_DIV_IRQ 0x05
#define REG_ERROR 0x06
#define REG_FIFO_DATA 0x09
#define REG_FIFO_LEVEL 0x0A
#define REG_CONTROL 0x0C
#define REG_BIT_FRAMING 0x0D
#define REG_COLL 0x0E
#define REG_MODE 0x11
#define REG_TX_CONTROL 0x14
#define REG_TX_ASK 0x15
#define REG_CRC_RESULT_H 0x21
#define REG_CRC_RESULT_L 0x22
#define REG_T_MODE 0x2A
#define REG_T_PRESCALER 0x2B
#define REG_T_RELOAD_H 0x2C
#define REG_T_RELOAD_L 0x2D
#define REG_VERSION 0x37

#define CMD_IDLE 0x00
#define CMD_CALC_CRC 0x03
#define CMD_TRANSCEIVE 0x0C
#define CMD_SOFT_RESET 0x0F

#define PICC_WUPA 0x52
#define PICC_HLTA 0x50
#define PICC_SEL_CL1 0x93
#define PICC_SEL_CL2 0x95
#define PICC_CASCADE_TAG 0x88

#define SS_BIT PB2
#define RST_BIT PB1

static uint8_t spi(uint8_t out)
{
    SPDR = out;
    while (!(SPSR & _BV(SPIF))) {
    }
    return SPDR;
}

static void write_reg(uint8_t reg, uint8_t value)
{
    PORTB &= (uint8_t)~_BV(SS_BIT);
    spi((uint8_t)((reg << 1) & 0x7E));
    spi(value);
    PORTB |= _BV(SS_BIT);
}

static uint8_t read_reg(uint8_t reg)
{
    PORTB &= (uint8_t)~_BV(SS_BIT);
    spi((uint8_t)(0x80 | ((reg << 1) & 0x7E)));
    uint8_t value = spi(0);
    PORTB |= _BV(SS_BIT);
    return value;
}

uint8_t rc_init(void)
{
    /* SS, MOSI, SCK and the reader's reset are outputs; SPI master at F_CPU/4. */
    DDRB |= _BV(SS_BIT) | _BV(PB3) | _BV(PB5) | _BV(RST_BIT);
    PORTB |= _BV(SS_BIT);
    SPCR = _BV(SPE) | _BV(MSTR);
    PORTB &= (uint8_t)~_BV(RST_BIT);
    _delay_us(10);
    PORTB |= _BV(RST_BIT);
    _delay_ms(50);
    write_reg(REG_COMMAND, CMD_SOFT_RESET);
    _delay_ms(50);
    /* Timer: auto start after sending, 25 ms timeout for a tag's answer. */
    write_reg(REG_T_MODE, 0x80);
    write_reg(REG_T_PRESCALER, 0xA9);
    write_reg(REG_T_RELOAD_H, 0x03);
    write_reg(REG_T_RELOAD_L, 0xE8);
    write_reg(REG_TX_ASK, 0x40);  /* 100% ASK modulation */
    write_reg(REG_MODE, 0x3D);    /* CRC preset 0x6363 (ISO 14443-3) */
    write_reg(REG_TX_CONTROL, (uint8_t)(read_reg(REG_TX_CONTROL) | 0x03)); /* antenna on */
    return read_reg(REG_VERSION);
}

static uint8_t transceive(const uint8_t *out, uint8_t out_length, uint8_t last_bits,
                          uint8_t *in, uint8_t *in_length)
{
    write_reg(REG_COMMAND, CMD_IDLE);
    write_reg(REG_COM_IRQ, 0x7F);
    write_reg(REG_FIFO_LEVEL, 0x80);
    for (uint8_t i = 0; i < out_length; i++) write_reg(REG_FIFO_DATA, out[i]);
    write_reg(REG_BIT_FRAMING, last_bits);
    write_reg(REG_COMMAND, CMD_TRANSCEIVE);
    write_reg(REG_BIT_FRAMING, (uint8_t)(0x80 | last_bits));
    uint32_t give_up = clock_ms() + 40;
    uint8_t irq;
    for (;;) {
        irq = read_reg(REG_COM_IRQ);
        if (irq & 0x30) break;           /* received, or back to idle */
        if (irq & 0x01) return RC_TIMEOUT; /* the reader's timer: no tag answered */
        if ((int32_t)(clock_ms() - give_up) > 0) return RC_TIMEOUT;
    }
    write_reg(REG_BIT_FRAMING, 0);
    uint8_t error = read_reg(REG_ERROR);
    if (error & 0x13) return RC_ERROR;   /* buffer overflow, parity or protocol error */
    uint8_t count = read_reg(REG_FIFO_LEVEL);
    if (count > *in_length) return RC_NO_ROOM;
    for (uint8_t i = 0; i < count; i++) in[i] = read_reg(REG_FIFO_DATA);
    *in_length = count;
    if (error & 0x08) return RC_COLLISION;
    return RC_OK;
}

static uint8_t crc_a(const uint8_t *data, uint8_t length, uint8_t *result)
{
    write_reg(REG_COMMAND, CMD_IDLE);
    write_reg(REG_DIV_IRQ, 0x04);
    write_reg(REG_FIFO_LEVEL, 0x80);
    for (uint8_t i = 0; i < length; i++) write_reg(REG_FIFO_DATA, data[i]);
    write_reg(REG_COMMAND, CMD_CALC_CRC);
    uint32_t give_up = clock_ms() + 10;
    while (!(read_reg(REG_DIV_IRQ) & 0x04)) {
        if ((int32_t)(clock_ms() - give_up) > 0) return RC_TIMEOUT;
    }
    write_reg(REG_COMMAND, CMD_IDLE);
    result[0] = read_reg(REG_CRC_RESULT_L);
    result[1] = read_reg(REG_CRC_RESULT_H);
    return RC_OK;
}

uint8_t rc_wake(void)
{
    uint8_t command = PICC_WUPA;
    uint8_t answer[2];
    uint8_t length = sizeof answer;
    write_reg(REG_COLL, 0x80); /* clear bits received after a collision */
    uint8_t status = transceive(&command, 1, 7, answer, &length);
    if (status != RC_OK) return status;
    return length == 2 ? RC_OK : RC_ERROR;
}

uint8_t rc_select(uint8_t *uid, uint8_t *length)
{
    *length = 0;
    const uint8_t levels[2] = {PICC_SEL_CL1, PICC_SEL_CL2};
    for (uint8_t level = 0; level < 2; level++) {
        uint8_t frame[9] = {levels[level], 0x20};
        uint8_t answer[5];
        uint8_t got = sizeof answer;
        uint8_t status = transceive(frame, 2, 0, answer, &got);
        if (status != RC_OK) return status;
        if (got != 5) return RC_ERROR;
        if ((answer[0] ^ answer[1] ^ answer[2] ^ answer[3]) != answer[4]) return RC_CRC;
        frame[1] = 0x70;
        memcpy(frame + 2, answer, 5);
        status = crc_a(frame, 7, frame + 7);
        if (status != RC_OK) return status;
        uint8_t sak[3];
        got = sizeof sak;
        status = transceive(frame, 9, 0, sak, &got);
        if (status != RC_OK) return status;
        if (got != 3) return RC_ERROR;
        uint8_t check[2];
        status = crc_a(sak, 1, check);
        if (status != RC_OK) return status;
        if (check[0] != sak[1] || check[1] != sak[2]) return RC_CRC;
        uint8_t cascade = answer[0] == PICC_CASCADE_TAG;
        if (cascade) {
            memcpy(uid + *length, answer + 1, 3);
            *length += 3;
        } else {
            memcpy(uid + *length, answer, 4);
            *length += 4;
        }
        if (!(sak[0] & 0x04)) return cascade ? RC_ERROR : RC_OK; /* UID complete */
    }
    return RC_ERROR; /* 10-byte UIDs (cascade level 3) are not used by card stickers */
}

void rc_halt(void)
{
    uint8_t frame[4] = {PICC_HLTA, 0x00};
    if (crc_a(frame, 2, frame + 2) != RC_OK) return;
    uint8_t answer[2];
    uint8_t length = sizeof answer;
    transceive(frame, 4, 0, answer, &length); /* a halted tag does not answer */
}
