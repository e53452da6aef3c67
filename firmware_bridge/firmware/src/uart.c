/* Serial port 0 at 115200 baud, 8N1. Sending goes through a ring buffer
 * emptied by the data-register-empty interrupt: a host that does not read
 * can fill it, and then messages are dropped whole rather than blocking the
 * reader loop. */
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#define BAUD 115200UL
#define TX_SIZE 256
#define RX_SIZE 128

static volatile uint8_t tx_buffer[TX_SIZE];
static volatile uint8_t tx_head, tx_tail; /* head: next free, tail: next to send */
static volatile uint8_t rx_buffer[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;

void uart_init(void)
{
    /* Double speed: 16 MHz / (8 * (16 + 1)) = 117647 baud, 2.1% off 115200. */
    UCSR0A = _BV(U2X0);
    UBRR0 = (uint16_t)(F_CPU / (8 * BAUD) - 1);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buffer[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) % TX_SIZE);
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) % RX_SIZE);
    if (next != rx_tail) { /* a full buffer drops the byte: the line will fail its checksum */
        rx_buffer[rx_head] = byte;
        rx_head = next;
    }
}

uint8_t uart_write(const char *data, uint8_t length)
{
    uint8_t fits;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        uint8_t used = (uint8_t)((tx_head - tx_tail + TX_SIZE) % TX_SIZE);
        fits = (uint16_t)used + length < TX_SIZE;
        if (fits) {
            for (uint8_t i = 0; i < length; i++) {
                tx_buffer[tx_head] = (uint8_t)data[i];
                tx_head = (uint8_t)((tx_head + 1) % TX_SIZE);
            }
            UCSR0B |= _BV(UDRIE0);
        }
    }
    return fits;
}

int16_t uart_read(void)
{
    int16_t byte = -1;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        if (rx_head != rx_tail) {
            byte = rx_buffer[rx_tail];
            rx_tail = (uint8_t)((rx_tail + 1) % RX_SIZE);
        }
    }
    return byte;
}
