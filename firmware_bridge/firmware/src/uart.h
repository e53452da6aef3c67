/* Serial port 0 with interrupt-driven ring buffers: never blocks. */
#ifndef UART_H
#define UART_H
#include <stdint.h>

void uart_init(void);
/* Queue bytes to send; returns 0 (and queues nothing) if they do not fit. */
uint8_t uart_write(const char *data, uint8_t length);
/* Next received byte, or -1 if none is waiting. */
int16_t uart_read(void);

#endif
