/* A sound card with no hardware, for the speech tests and benchmark.
 *
 * An ALSA PCM ("type companion") that takes 16-bit mono samples at
 * 22,050 Hz (ALSA's "plug" in front of it converts anything else) and
 * writes each piece into the file named by its "file" setting, a FIFO, at
 * the moment the program writes it: what a real card would start to play.
 * The reader of the FIFO (voices/rig.py) takes it at the pace of real
 * sound, so a program that writes ahead waits, as on a real card.
 *
 * voices/rig.py builds it: gcc -shared -fPIC -O2
 *   -o libasound_module_pcm_companion.so companion_card.c -lasound
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int fd;
    snd_pcm_uframes_t played; /* frames handed to the file since prepare */
} card_t;

static int card_start(snd_pcm_ioplug_t *io) { (void)io; return 0; }
static int card_stop(snd_pcm_ioplug_t *io) { (void)io; return 0; }

static int card_prepare(snd_pcm_ioplug_t *io)
{
    ((card_t *)io->private_data)->played = 0;
    return 0;
}

/* With BOUNDARY_WA the pointer may run up to ALSA's boundary (hours of
 * sound), so a whole buffer written at once still counts as played. */
static snd_pcm_sframes_t card_pointer(snd_pcm_ioplug_t *io)
{
    return (snd_pcm_sframes_t)((card_t *)io->private_data)->played;
}

static snd_pcm_sframes_t card_transfer(snd_pcm_ioplug_t *io,
                                       const snd_pcm_channel_area_t *areas,
                                       snd_pcm_uframes_t offset, snd_pcm_uframes_t size)
{
    card_t *card = io->private_data;
    const char *data = (const char *)areas->addr + (areas->first + areas->step * offset) / 8;
    size_t left = size * 2;
    while (left > 0) {
        ssize_t done = write(card->fd, data, left);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd room = { card->fd, POLLOUT, 0 };
                poll(&room, 1, 100);
                continue;
            }
            return -errno;
        }
        data += done;
        left -= (size_t)done;
    }
    card->played += size;
    return (snd_pcm_sframes_t)size;
}

static int card_close(snd_pcm_ioplug_t *io)
{
    card_t *card = io->private_data;
    close(card->fd);
    free(card);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = card_start,
    .stop = card_stop,
    .prepare = card_prepare,
    .pointer = card_pointer,
    .transfer = card_transfer,
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
    card->fd = open(file, O_WRONLY | O_CLOEXEC);
    if (card->fd < 0) {
        int error = -errno;
        free(card);
        return error;
    }
    card->io.version = SND_PCM_IOPLUG_VERSION;
    card->io.name = "Companion test sound card";
    card->io.callback = &callbacks;
    card->io.private_data = card;
    card->io.poll_fd = card->fd;
    card->io.poll_events = POLLOUT;
    card->io.flags = SND_PCM_IOPLUG_FLAG_BOUNDARY_WA;
    int err = snd_pcm_ioplug_create(&card->io, name, stream, mode);
    if (err < 0) {
        close(card->fd);
        free(card);
        return err;
    }
    static const unsigned int access[] = {
        SND_PCM_ACCESS_RW_INTERLEAVED, SND_PCM_ACCESS_RW_NONINTERLEAVED };
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE };
    if ((err = snd_pcm_ioplug_set_param_list(&card->io, SND_PCM_IOPLUG_HW_ACCESS, 2, access)) < 0
        || (err = snd_pcm_ioplug_set_param_list(&card->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 1)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_RATE, 22050, 22050)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 256, 2048)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&card->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 8)) < 0) {
        snd_pcm_ioplug_delete(&card->io);
        return err;
    }
    *pcmp = card->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(companion);
