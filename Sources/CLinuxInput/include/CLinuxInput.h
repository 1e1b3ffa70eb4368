#ifndef HAPTICS_CLINUXINPUT_H
#define HAPTICS_CLINUXINPUT_H

// The evdev force-feedback calls, for Swift.
//
// Swift cannot import the request numbers of <linux/input.h>: EVIOCGBIT, EVIOCGNAME are
// function-like macros and EVIOCSFF, EVIOCGEFFECTS… expand to sizeof expressions. ioctl(2)
// itself is variadic, which Swift cannot call either. These static inline wrappers expose
// both. Every call returns a non-negative value on success and -errno on failure, so Swift
// never reads errno after an intervening call could have changed it. None of them allocates:
// they are safe on a real-time thread and in a signal-handling path.

#include <errno.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// MARK: Request numbers (exposed so tests can check the struct layout Swift sees)

static inline unsigned long haptics_request_eviocsff(void) { return EVIOCSFF; }
static inline unsigned long haptics_request_eviocrmff(void) { return EVIOCRMFF; }
static inline unsigned long haptics_request_eviocgeffects(void) { return EVIOCGEFFECTS; }
static inline unsigned long haptics_request_eviocgversion(void) { return EVIOCGVERSION; }
static inline unsigned long haptics_request_eviocgname(unsigned int length) { return EVIOCGNAME(length); }
static inline unsigned long haptics_request_eviocgbit(unsigned int type, unsigned int length) {
    return EVIOCGBIT(type, length);
}

// MARK: Calls

static inline int haptics_result(int result) { return result < 0 ? -errno : result; }

/// EVIOCGVERSION: fails with -ENOTTY (or -EINVAL) on anything that is not an evdev node.
static inline int haptics_get_version(int fd, int *version) {
    return haptics_result(ioctl(fd, EVIOCGVERSION, version));
}

/// EVIOCGNAME: copies at most `length` bytes of the device name; returns the byte count.
static inline int haptics_get_name(int fd, char *buffer, unsigned int length) {
    return haptics_result(ioctl(fd, EVIOCGNAME(length), buffer));
}

/// EVIOCGBIT(type, length): type 0 gives the event types (EV_*), EV_FF the effect bits (FF_*).
static inline int haptics_get_bits(int fd, unsigned int type, void *bits, unsigned int length) {
    return haptics_result(ioctl(fd, EVIOCGBIT(type, length), bits));
}

/// EVIOCGEFFECTS: how many effects the device can hold (and, on ff-memless, play) at once.
static inline int haptics_get_effect_count(int fd, int *count) {
    return haptics_result(ioctl(fd, EVIOCGEFFECTS, count));
}

/// EVIOCSFF: uploads a new effect (id == -1; the kernel writes the assigned id back) or
/// updates an uploaded one in place (same id), also while it plays.
static inline int haptics_upload_effect(int fd, struct ff_effect *effect) {
    return haptics_result(ioctl(fd, EVIOCSFF, effect));
}

/// EVIOCRMFF: stops and erases an effect this descriptor owns. The id is passed by value.
static inline int haptics_erase_effect(int fd, int effect_id) {
    return haptics_result(ioctl(fd, EVIOCRMFF, effect_id));
}

/// Writes one event (EV_FF play/stop, FF_GAIN); returns the byte count written.
static inline int haptics_write_event(int fd, const struct input_event *event) {
    ssize_t written = write(fd, event, sizeof *event);
    return written < 0 ? -errno : (int)written;
}

// MARK: Values

/// An event with a zero timestamp. Built here because the timestamp's layout differs between
/// 64-bit and 32-bit-with-64-bit-time targets, which Swift would otherwise have to spell.
static inline struct input_event haptics_make_event(unsigned short type, unsigned short code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = type;
    event.code = code;
    event.value = value;
    return event;
}

static inline int haptics_event_size(void) { return (int)sizeof(struct input_event); }
static inline int haptics_ff_effect_size(void) { return (int)sizeof(struct ff_effect); }

// MARK: Virtual devices (uinput), for tests where /dev/uinput exists

#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>

/// Creates a virtual force-feedback input device named `name` with the `FF_*` codes given,
/// holding `effects` effects: returns the uinput descriptor (keep it open while the device is
/// to exist) and writes its sysfs name ("input42") into `sysname`; -errno on failure.
static inline int haptics_uinput_create(const char *name, const int *codes, int count, int effects, char *sysname,
                                        unsigned int sysname_length) {
    int fd = open("/dev/uinput", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -errno;
    int failed = ioctl(fd, UI_SET_EVBIT, EV_FF) < 0;
    for (int i = 0; i < count && !failed; i++) failed = ioctl(fd, UI_SET_FFBIT, codes[i]) < 0;
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1209;
    setup.id.product = 0x0001;
    snprintf(setup.name, sizeof setup.name, "%s", name);
    setup.ff_effects_max = (unsigned)effects;
    if (!failed) failed = ioctl(fd, UI_DEV_SETUP, &setup) < 0;
    if (!failed) failed = ioctl(fd, UI_DEV_CREATE) < 0;
    if (!failed) failed = ioctl(fd, UI_GET_SYSNAME(sysname_length), sysname) < 0;
    if (failed) {
        int code = errno;
        close(fd);
        return -code;
    }
    return fd;
}

/// Removes a device made by `haptics_uinput_create` and closes its descriptor.
static inline void haptics_uinput_destroy(int fd) {
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
}

#endif
