/* The simulated scanner board: the real firmware ELF running in simavr,
 * its serial port on a pseudo-terminal, and an MFRC522 model on its SPI bus.
 *
 *   board build/scanner.elf
 *
 * prints "PTY /dev/pts/N" once the board runs, then takes commands on
 * standard input, one a line:
 *   place <uid hex>   put a tag with this UID (4 or 7 bytes) on the reader
 *   remove            take the tag away
 *   reset             reset the board (as when a port opening resets an Uno)
 *   kill              stop at once, as when the board is unplugged
 * The simulation is held to real time, so the firmware's timing is real.
 * Test equipment: links GPL libsimavr, never installed with the app. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_spi.h"
#include "parts/uart_pty.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_time.h"

#include "mfrc522_model.h"

static mfrc522_model reader;
static avr_irq_t *spi_input;
static uart_pty_t uart_pty;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char pending[16][64];
static int pending_count;

static void on_spi(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    avr_raise_irq(spi_input, mfrc522_spi(&reader, (uint8_t)value));
}

static void on_chip_select(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    mfrc522_chip_select(&reader, value == 0);
}

static void *read_commands(void *unused)
{
    (void)unused;
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        pthread_mutex_lock(&lock);
        if (pending_count < 16) {
            snprintf(pending[pending_count], sizeof pending[0], "%s", line);
            pending_count++;
        }
        pthread_mutex_unlock(&lock);
    }
    /* standard input closed: the test is gone, and so is the board */
    pthread_mutex_lock(&lock);
    strcpy(pending[0], "kill\n");
    pending_count = 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static int parse_uid(const char *text, uint8_t *uid)
{
    size_t length = 0;
    while (isxdigit((unsigned char)text[0]) && isxdigit((unsigned char)text[1]) && length < 10) {
        char byte[3] = {text[0], text[1], 0};
        uid[length++] = (uint8_t)strtoul(byte, NULL, 16);
        text += 2;
    }
    return (length == 4 || length == 7) ? (int)length : -1;
}

static int run_command(avr_t *avr, const char *line)
{
    uint8_t uid[10];
    int length;
    if (strncmp(line, "place ", 6) == 0 && (length = parse_uid(line + 6, uid)) > 0) {
        mfrc522_place(&reader, uid, (size_t)length);
        printf("OK place\n");
    } else if (strncmp(line, "remove", 6) == 0) {
        mfrc522_remove(&reader);
        printf("OK remove\n");
    } else if (strncmp(line, "reset", 5) == 0) {
        avr_reset(avr);
        int present = reader.tag_present;
        mfrc522_reset(&reader);
        reader.tag_present = present;
        printf("OK reset\n");
    } else if (strncmp(line, "kill", 4) == 0) {
        return 0;
    } else {
        printf("ERR unknown command\n");
    }
    fflush(stdout);
    return 1;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s scanner.elf\n", argv[0]);
        return 2;
    }
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(argv[1], &firmware) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    strcpy(firmware.mmcu, "atmega328p");
    firmware.frequency = 16000000;
    avr_t *avr = avr_make_mcu_by_name(firmware.mmcu);
    if (!avr) return 1;
    avr_init(avr);
    avr->log = LOG_NONE;
    avr_load_firmware(avr, &firmware);

    mfrc522_reset(&reader);
    spi_input = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT),
                            on_spi, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 2),
                            on_chip_select, NULL);

    uart_pty_init(avr, &uart_pty);
    uart_pty_connect(&uart_pty, '0');
    printf("PTY %s\n", uart_pty.port[0].slavename);
    fflush(stdout);

    pthread_t commands;
    pthread_create(&commands, NULL, read_commands, NULL);

    double start = now_seconds();
    avr_cycle_count_t start_cycle = avr->cycle;
    for (;;) {
        char line[64] = "";
        pthread_mutex_lock(&lock);
        if (pending_count > 0) {
            strcpy(line, pending[0]);
            memmove(pending[0], pending[1], sizeof pending[0] * (size_t)(pending_count - 1));
            pending_count--;
        }
        pthread_mutex_unlock(&lock);
        if (line[0]) {
            if (!run_command(avr, line)) break;
            if (strncmp(line, "reset", 5) == 0) {
                start = now_seconds();
                start_cycle = avr->cycle;
            }
        }
        for (int i = 0; i < 2000; i++) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "the firmware stopped\n");
                goto done;
            }
        }
        /* hold the simulation to real time */
        double simulated = (double)(avr->cycle - start_cycle) / (double)firmware.frequency;
        double ahead = simulated - (now_seconds() - start);
        if (ahead > 0.0005) usleep((useconds_t)(ahead * 1e6));
    }
done:
    uart_pty_stop(&uart_pty);
    return 0;
}
