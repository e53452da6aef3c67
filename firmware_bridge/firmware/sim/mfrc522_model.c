/* MFRC522 register model: enough of the chip for a reader that wakes,
 * selects (cascade levels 1 and 2) and halts tags with Transceive and
 * CalcCRC, polling ComIrqReg and DivIrqReg as the datasheet describes. */
#include "mfrc522_model.h"

#include <string.h>

#define REG_COMMAND 0x01
#define REG_COM_IRQ 0x04
#define REG_DIV_IRQ 0x05
#define REG_ERROR 0x06
#define REG_FIFO_DATA 0x09
#define REG_FIFO_LEVEL 0x0A
#define REG_CONTROL 0x0C
#define REG_BIT_FRAMING 0x0D
#define REG_CRC_RESULT_H 0x21
#define REG_CRC_RESULT_L 0x22
#define REG_VERSION 0x37

#define CMD_IDLE 0x00
#define CMD_CALC_CRC 0x03
#define CMD_TRANSCEIVE 0x0C
#define CMD_SOFT_RESET 0x0F

uint16_t mfrc522_crc_a(const uint8_t *data, size_t length)
{
    uint16_t crc = 0x6363;
    for (size_t i = 0; i < length; i++) {
        uint8_t b = data[i];
        b ^= (uint8_t)(crc & 0xFF);
        b ^= (uint8_t)(b << 4);
        crc = (uint16_t)((crc >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return crc;
}

void mfrc522_reset(mfrc522_model *m)
{
    memset(m->regs, 0, sizeof m->regs);
    m->regs[REG_COMMAND] = 0x20;
    m->regs[REG_VERSION] = 0x92;
    m->fifo_length = 0;
    m->first_byte = 1;
    m->tag_state = TAG_IDLE;
}

void mfrc522_place(mfrc522_model *m, const uint8_t *uid, size_t length)
{
    memcpy(m->uid, uid, length);
    m->uid_length = length;
    m->tag_present = 1;
    m->tag_state = TAG_IDLE;
}

void mfrc522_remove(mfrc522_model *m) { m->tag_present = 0; }

static void answer(mfrc522_model *m, const uint8_t *data, size_t length)
{
    memcpy(m->fifo, data, length);
    m->fifo_length = length;
    m->regs[REG_COM_IRQ] |= 0x30; /* RxIRq, IdleIRq */
    m->regs[REG_ERROR] = 0;
    m->regs[REG_CONTROL] &= (uint8_t)~0x07;
}

static void with_crc(mfrc522_model *m, uint8_t sak)
{
    uint16_t crc = mfrc522_crc_a(&sak, 1);
    uint8_t frame[3] = {sak, (uint8_t)(crc & 0xFF), (uint8_t)(crc >> 8)};
    answer(m, frame, 3);
}

/* The UID bytes a cascade level sends: the cascade tag 0x88 first when the
 * UID goes on to the next level. */
static void level_bytes(const mfrc522_model *m, int level, uint8_t *out)
{
    if (m->uid_length == 7 && level == 1) {
        out[0] = 0x88;
        memcpy(out + 1, m->uid, 3);
    } else if (m->uid_length == 7) {
        memcpy(out, m->uid + 3, 4);
    } else {
        memcpy(out, m->uid, 4);
    }
    out[4] = (uint8_t)(out[0] ^ out[1] ^ out[2] ^ out[3]);
}

static void transceive(mfrc522_model *m)
{
    uint8_t frame[64];
    size_t length = m->fifo_length;
    memcpy(frame, m->fifo, length);
    m->fifo_length = 0;
    int last_bits = m->regs[REG_BIT_FRAMING] & 0x07;
    int levels = m->uid_length == 7 ? 2 : 1;
    if (!m->tag_present) goto silence;
    if (length == 1 && last_bits == 7) {
        int wake = frame[0] == 0x52 && (m->tag_state == TAG_IDLE || m->tag_state == TAG_HALT);
        int request = frame[0] == 0x26 && m->tag_state == TAG_IDLE;
        if (!wake && !request) goto silence;
        m->tag_state = TAG_READY;
        m->cascade_level = 1;
        uint8_t atqa[2] = {(uint8_t)(m->uid_length == 7 ? 0x44 : 0x04), 0x00};
        answer(m, atqa, 2);
        return;
    }
    if (m->tag_state == TAG_READY && length >= 2 && (frame[0] == 0x93 || frame[0] == 0x95)) {
        int level = frame[0] == 0x93 ? 1 : 2;
        if (level > levels || level != m->cascade_level) goto silence;
        uint8_t expected[5];
        level_bytes(m, level, expected);
        if (length == 2 && frame[1] == 0x20) {
            answer(m, expected, 5);
            return;
        }
        if (length == 9 && frame[1] == 0x70) {
            uint16_t crc = mfrc522_crc_a(frame, 7);
            if (frame[7] != (crc & 0xFF) || frame[8] != (crc >> 8)) goto silence;
            if (memcmp(frame + 2, expected, 5) != 0) goto silence;
            if (level < levels) {
                m->cascade_level = level + 1;
                with_crc(m, 0x04); /* UID not complete */
            } else {
                m->tag_state = TAG_ACTIVE;
                with_crc(m, m->uid_length == 7 ? 0x00 : 0x08);
            }
            return;
        }
        goto silence;
    }
    if (length == 4 && frame[0] == 0x50 && frame[1] == 0x00 && m->tag_state == TAG_ACTIVE) {
        uint16_t crc = mfrc522_crc_a(frame, 2);
        if (frame[2] == (crc & 0xFF) && frame[3] == (crc >> 8)) m->tag_state = TAG_HALT;
    }
silence:
    m->regs[REG_COM_IRQ] |= 0x01; /* TimerIRq: no answer within the timeout */
}

static uint8_t read_register(mfrc522_model *m, uint8_t reg)
{
    if (reg == REG_FIFO_DATA) {
        if (m->fifo_length == 0) return 0;
        uint8_t value = m->fifo[0];
        memmove(m->fifo, m->fifo + 1, --m->fifo_length);
        return value;
    }
    if (reg == REG_FIFO_LEVEL) return (uint8_t)m->fifo_length;
    return m->regs[reg];
}

static void write_register(mfrc522_model *m, uint8_t reg, uint8_t value)
{
    switch (reg) {
    case REG_COMMAND:
        m->regs[reg] = value;
        if ((value & 0x0F) == CMD_SOFT_RESET) {
            int present = m->tag_present;
            mfrc522_reset(m);
            m->tag_present = present;
        } else if ((value & 0x0F) == CMD_CALC_CRC) {
            uint16_t crc = mfrc522_crc_a(m->fifo, m->fifo_length);
            m->regs[REG_CRC_RESULT_L] = (uint8_t)(crc & 0xFF);
            m->regs[REG_CRC_RESULT_H] = (uint8_t)(crc >> 8);
            m->regs[REG_DIV_IRQ] |= 0x04;
        }
        break;
    case REG_COM_IRQ:
    case REG_DIV_IRQ:
        if (value & 0x80) m->regs[reg] |= (uint8_t)(value & 0x7F);
        else m->regs[reg] &= (uint8_t)~value;
        break;
    case REG_FIFO_DATA:
        if (m->fifo_length < sizeof m->fifo) m->fifo[m->fifo_length++] = value;
        break;
    case REG_FIFO_LEVEL:
        if (value & 0x80) m->fifo_length = 0;
        break;
    case REG_BIT_FRAMING:
        m->regs[reg] = (uint8_t)(value & 0x7F);
        if ((value & 0x80) && (m->regs[REG_COMMAND] & 0x0F) == CMD_TRANSCEIVE) transceive(m);
        break;
    default:
        m->regs[reg] = value;
    }
}

void mfrc522_chip_select(mfrc522_model *m, int selected)
{
    m->selected = selected;
    m->first_byte = 1;
}

uint8_t mfrc522_spi(mfrc522_model *m, uint8_t in)
{
    if (!m->selected) return 0xFF;
    uint8_t address = (uint8_t)((in >> 1) & 0x3F);
    if (m->first_byte) {
        m->first_byte = 0;
        m->reading = (in & 0x80) != 0;
        m->address = address;
        return 0;
    }
    if (m->reading) {
        /* each byte sent while reading names the next register to read */
        uint8_t value = read_register(m, m->address);
        m->address = address;
        return value;
    }
    write_register(m, m->address, in);
    return 0;
}
