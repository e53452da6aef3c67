#define _GNU_SOURCE
/* A sound card with no hardware, for the speech tests and benchmark.
 *
 * An ALSA PCM ("type companion") that takes 16-bit mono samples at
 * 22,050 Hz (ALSA's "plug" in front of it converts anything else) into a
 * buffer, as a card does, and plays them at the pace of real sound: each
 * period, as it is played, is written into the file named by its "file"
 * setting (a FIFO that devtools/rig.py reads and times). A program that
 * writes ahead waits for room in the buffer; a stop (snd_pcm_drop) throws
 * the buffer away, as a real card does. So the FIFO carries what a
 * listener would hear, when they would hear it.
 *
 * devtools/rig.py builds it: gcc -shared -fPIC -DPIC -O2
 *   -o libasound_module_pcm_companion.so companion_card.c -lasound -lpthread
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RATE 22050

typedef struct {
    snd_pcm_ioplug_t io;
    int fd;                  /* the FIFO */
    int wake[2];             /* a pipe: the player says "room in the buffer" */
    pthread_t player;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int16_t *ring;           /* the card's buffer */
    snd_pcm_uframes_t ring_frames;
    snd_pcm_uframes_t appl;  /* frames the program wrote, since prepare */
    snd_pcm_uframes_t hw;    /* frames played, since prepare */
    int running, quit;
    struct timespec since;   /* when the frame at hw_since started to play */
    snd_pcm_uframes_t hw_since;
} card_t;

static double seconds(const struct timespec *t)
{
    return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static void say_room(card_t *card)
{
    char byte = 1;
    ssize_t ignored = write(card->wake[1], &byte, 1);
    (void)ignored;
}

/* Plays the buffer: a period at a time, at the pace of real sound. */
static void *play(void *data)
{
    card_t *card = data;
    pthread_mutex_lock(&card->lock);
    while (!card->quit) {
        if (!card->running || card->hw >= card->appl || card->ring == NULL) {
            if (card->running && card->hw >= card->appl) {
                /* an underrun: the next sound starts when it comes */
                clock_gettime(CLOCK_MONOTONIC, &card->since);
                card->hw_since = card->hw;
            }
            pthread_cond_wait(&card->changed, &card->lock);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double due = seconds(&card->since) + (double)(card->hw - card->hw_since) / RATE;
        double wait = due - seconds(&now);
        if (wait > 0.0005) {
            struct timespec until;
            double at = due;
            until.tv_sec = (time_t)at;
            until.tv_nsec = (long)((at - (double)until.tv_sec) * 1e9);
            pthread_mutex_unlock(&card->lock);
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
            pthread_mutex_lock(&card->lock);
            continue; /* things may have changed: a stop, a drop */
        }
        snd_pcm_uframes_t chunk = card->appl - card->hw;
        snd_pcm_uframes_t period = card->io.period_size ? card->io.period_size / 4 : 256;
        if (period == 0)
            period = 64;
        if (chunk > period)
            chunk = period;
        snd_pcm_uframes_t at = card->hw % card->ring_frames;
        if (chunk > card->ring_frames - at)
            chunk = card->ring_frames - at;
        int16_t piece[4096];
        if (chunk > 4096)
            chunk = 4096;
        memcpy(piece, card->ring + at, chunk * 2);
        card->hw += chunk;
        pthread_mutex_unlock(&card->lock);
        const char *out = (const char *)piece;
        size_t left = chunk * 2;
        while (left > 0) {
            ssize_t done = write(card->fd, out, left);
            if (done < 0 && errno == EINTR)
                continue;
            if (done < 0)
                break;
            out += done;
            left -= (size_t)done;
        }
        say_room(card);
        pthread_mutex_lock(&card->lock);
    }
    pthread_mutex_unlock(&card->lock);
    return NULL;
}

static int card_start(snd_pcm_ioplug_t *io)
{
    card_t *card = io->private_data;
    pthread_mutex_lock(&card->lock);
    card->running = 1;
    clock_gettime(CLOCK_MONOTONIC, &card->since);
    card->hw_since = card->hw;
    pthread_cond_signal(&card->changed);
    pthread_mutex_unlock(&card->lock);
    return 0;
}

/* A stop throws away what is not played yet, as snd_pcm_drop does. */
static int card_stop(snd_pcm_ioplug_t *io)
{
    card_t *card = io->private_data;
    pthread_mutex_lock(&card->lock);
    card->running = 0;
    card->hw = card->appl;
    pthread_cond_signal(&card->changed);
    pthread_mutex_unlock(&card->lock);
    say_room(card);
    return 0;
}

static int card_prepare(snd_pcm_ioplug_t *io)
{
    card_t *card = io->private_data;
    pthread_mutex_lock(&card->lock);
    card->running = 0;
    card->appl = card->hw = 0;
    if (card->ring_frames != io->buffer_size || card->ring == NULL) {
        free(card->ring);
        card->ring_frames = io->buffer_size;
        card->ring = calloc(card->ring_frames, 2);
    }
    pthread_mutex_unlock(&card->lock);
    return card->ring ? 0 : -ENOMEM;
}

/* With BOUNDARY_WA the pointer may run up to ALSA's boundary (hours). */
static snd_pcm_sframes_t card_pointer(snd_pcm_ioplug_t *io)
{
    card_t *card = io->private_data;
    pthread_mutex_lock(&card->lock);
    snd_pcm_sframes_t hw = (snd_pcm_sframes_t)card->hw;
    pthread_mutex_unlock(&card->lock);
    return hw;
}

static snd_pcm_sframes_t card_transfer(snd_pcm_ioplug_t *io,
                                       const snd_pcm_channel_area_t *areas,
                                       snd_pcm_uframes_t offset, snd_pcm_uframes_t size)
{
    card_t *card = io->private_data;
    const int16_t *data = (const int16_t *)((const char *)areas->addr
                                            + (areas->first + areas->step * offset) / 8);
    pthread_mutex_lock(&card->lock);
    snd_pcm_uframes_t room = card->ring_frames - (card->appl - card->hw);
    if (size > room)
        size = room;
    for (snd_pcm_uframes_t i = 0; i < size; i++)
        card->ring[(card->appl + i) % card->ring_frames] = data[i];
    card->appl += size;
    pthread_cond_signal(&card->changed);
    pthread_mutex_unlock(&card->lock);
    return (snd_pcm_sframes_t)size;
}

static int card_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds,
                             unsigned short *revents)
{
    card_t *card = io->private_data;
    char drained[64];
    (void)pfd;
    (void)nfds;
    while (read(card->wake[0], drained, sizeof drained) > 0)
        ;
    pthread_mutex_lock(&card->lock);
    snd_pcm_uframes_t room = card->ring_frames - (card->appl - card->hw);
    pthread_mutex_unlock(&card->lock);
    *revents = room >= io->period_size ? POLLOUT : 0;
    return 0;
}

static int card_close(snd_pcm_ioplug_t *io)
{
    card_t *card = io->private_data;
    pthread_mutex_lock(&card->lock);
    card->quit = 1;
    pthread_cond_signal(&card->changed);
    pthread_mutex_unlock(&card->lock);
    pthread_join(card->player, NULL);
    close(card->fd);
    close(card->wake[0]);
    close(card->wake[1]);
    free(card->ring);
    free(card);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = card_start,
    .stop = card_stop,
    .prepare = card_prepare,
    .pointer = card_pointer,
    .transfer = card_transfer,
    .poll_revents = card_poll_revents,
    .close = card_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(companion)
{
    snd_config_iterator_t i, next;
    const char *file = NULL;
    (void)root;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) < 0)
            continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint"))
            continue;
        if (!strcmp(id, "file") && snd_config_get_string(n, &file) >= 0)
            continue;
        SNDERR("Unknown field %s", id);
        return -EINVAL;
    }
    if (file == NULL || stream != SND_PCM_STREAM_PLAYBACK)
        return -EINVAL;
    card_t *card = calloc(1, sizeof(*card));
    if (card == NULL)
        return -ENOMEM;
    /* Never waits for a reader: a sink that has closed (its test is over)
       makes the card fail to open, and the player end, instead of leaving
       it waiting for ever. Writes then block as a sound card's do. */
    card->fd = open(file, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
    if (card->fd >= 0)
        fcntl(card->fd, F_SETFL, fcntl(card->fd, F_GETFL) & ~O_NONBLOCK);
    if (card->fd < 0 || pipe2(card->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        int error = -errno;
        if (card->fd >= 0)
            close(card->fd);
        free(card);
        return error;
    }
    pthread_mutex_init(&card->lock, NULL);
    pthread_cond_init(&card->changed, NULL);
    if (pthread_create(&card->player, NULL, play, card) != 0) {
        close(card->fd);
        close(card->wake[0]);
        close(card->wake[1]);
        free(card);
        return -EAGAIN;
    }
    card->io.version = SND_PCM_IOPLUG_VERSION;
    card->io.name = "Companion test sound card";
    card->io.callback = &callbacks;
    card->io.private_data = card;
    card->io.poll_fd = card->wake[0];
    card->io.poll_events = POLLIN;
    card->io.flags = SND_PCM_IOPLUG_FLAG_BOUNDARY_WA;
    int err = snd_pcm_ioplug_create(&card->io, name, stream, mode);
    if (err < 0) {
        card_close(&card->io);
        return err;
    }
    static const unsigned int access[] = {
        SND_PCM_ACCESS_RW_INTERLEAVED, SND_PCM_ACCESS_RW_NONINTERLEAVED };
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE };
    /* A buffer of 23 to 186 ms, in periods of 6 to 46 ms, as cards have. */
    if ((err = snd_pcm_ioplug_set_param_list(&card->io, SND_PCM_IOPLUG_HW_ACCESS, 2, access)) < 0
        || (err = snd_pcm_ioplug_set_param_list(&card->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 1)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_RATE, RATE, RATE)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 256, 2048)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 4)) < 0) {
        snd_pcm_ioplug_delete(&card->io);
        return err;
    }
    *pcmp = card->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(companion);
