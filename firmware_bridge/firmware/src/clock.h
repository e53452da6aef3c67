/* A millisecond clock from Timer0. */
#ifndef CLOCK_H
#define CLOCK_H
#include <stdint.h>

void clock_init(void);
uint32_t clock_ms(void);

#endif
