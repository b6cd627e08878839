/*
 * device_grant.c — see device_grant.h.
 *
 * A device is judged by what the kernel says it is -- its class and name
 * in sysfs (/sys/dev/char/MAJOR:MINOR), not the path's name -- so a node
 * renamed or made elsewhere under another name is judged the same.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devices/device_grant.h"

/* What a refused device gives the workload: every entry says why at the
 * line.  `name` NULL: the whole class. */
static const struct refused {
    const char *class, *name, *why;
} refused[] = {
    /* Memory and the kernel's log. */
    {"mem", "mem", "physical memory of the host"},
    {"mem", "kmem", "the kernel's memory"},
    {"mem", "port", "the host's I/O ports"},
    {"mem", "kmsg", "the kernel log: forged lines, and the host's driver messages"},
    /* Disks beneath every file rule: raw commands or raw I/O. */
    {"scsi_generic", NULL, "raw SCSI commands to a disk (sg)"},
    {"bsg", NULL, "raw SCSI commands to a disk (bsg)"},
    {"nvme", NULL, "an NVMe controller's admin commands (format, firmware)"},
    {"nvme-generic", NULL, "raw I/O to an NVMe namespace, beneath every file rule"},
    {"mtd", NULL, "raw flash"},
    {"ubi", NULL, "raw flash"},
    {"misc", "loop-control", "makes loop devices of host files"},
    {"misc", "mapper/control", "device-mapper: remaps the host's disks"},
    {"misc", "btrfs-control", "btrfs's control of the host's volumes"},
    {"misc", "snapshot", "the hibernation image: all of memory"},
    /* Another session's screen, keyboard or terminal. */
    {"vc", NULL, "a console's screen"},
    {"tty", "console", "the host's console"},
    {"tty", "ptmx", "the host's pseudo-terminals (the sandbox has its own)"},
    {"input", NULL, "the host's keyboard and mouse events"},
    {"misc", "uinput", "types into the host's session"},
    {"misc", "uhid", "makes keyboards that type into the host's session"},
    {"graphics", NULL, "the host's screen (a framebuffer)"},
    {"hidraw", NULL, "raw keyboards and other HID devices: the host's keystrokes"},
    {"usbmisc", NULL, "USB HID and other raw USB devices: the host's keystrokes"},
    {"usbmon", NULL, "every USB transfer of the host"},
    {"usb_device", NULL, "raw USB devices, a disk's included, beneath every file rule"},
    {"tty", "ttyprintk", "writes lines into the kernel log"},
    /* The machine itself. */
    {"msr", NULL, "writes the CPU's model-specific registers"},
    {"watchdog", NULL, "reboots the host"},
    {"tpm", NULL, "the host's TPM: its sealed keys"},
    {"tpmrm", NULL, "the host's TPM: its sealed keys"},
    {"misc", "nvram", "the firmware's settings"},
    {"raw", NULL, "raw I/O to a disk, beneath every file rule"},
    {"dax", NULL, "raw persistent memory"},
    {"ipmi", NULL, "the board's management controller"},
    {"mei", NULL, "the chipset's management engine"},
    {"i2c-dev", NULL, "the board's I2C buses (power, sensors, EEPROMs)"},
    {"spidev", NULL, "the board's SPI buses (its flash included)"},
};

/* The same devices by their fixed numbers (Documentation/admin-guide/
 * devices.txt), for a kernel that lists them nowhere in sysfs (a driver
 * built without its class, /dev/mem with CONFIG_DEVMEM off: a node made
 * for the number still reaches it once the driver is there).  minor -1:
 * the whole major. */
static const struct refused_number {
    unsigned major;
    int minor;
    const char *why;
} refused_numbers[] = {
    {1, 1, "physical memory of the host"},
    {1, 2, "the kernel's memory"},
    {1, 4, "the host's I/O ports"},
    {1, 11, "the kernel log: forged lines, and the host's driver messages"},
    {5, 1, "the host's console"},
    {5, 2, "the host's pseudo-terminals (the sandbox has its own)"},
    {7, -1, "a console's screen"},
    {10, 130, "reboots the host"},
    {10, 223, "types into the host's session"},
    {10, 231, "the hibernation image: all of memory"},
    {10, 234, "btrfs's control of the host's volumes"},
    {10, 236, "device-mapper: remaps the host's disks"},
    {10, 237, "makes loop devices of host files"},
    {10, 144, "the firmware's settings"},
    {10, 239, "makes keyboards that type into the host's session"},
    {2, -1, "a legacy pseudo-terminal of the host: another session's keystrokes"},
    {5, 3, "writes lines into the kernel log"},
    {13, -1, "the host's keyboard and mouse events"},
    {29, -1, "the host's screen (a framebuffer)"},
    {89, -1, "the board's I2C buses (power, sensors, EEPROMs)"},
    {162, -1, "raw I/O to a disk, beneath every file rule"},
    {189, -1, "raw USB devices, a disk's included, beneath every file rule"},
    {229, -1, "a hypervisor console"},
    {21, -1, "raw SCSI commands to a disk (sg)"},
    {202, -1, "writes the CPU's model-specific registers"},
};

/* Pseudo-terminals have no sysfs entry: by number (Documentation/admin-guide/devices.txt). */
#define PTS_MAJOR_FIRST 136
#define PTS_MAJOR_LAST 143
/* The virtual consoles tty0-tty63 share the tty class with serial ports. */
#define VT_MAJOR 4
#define VT_MINORS 64

/* The device's class and kernel name from sysfs; false when it has none. */
static bool sysfs_identity(dev_t rdev, char *cls, size_t clslen, char *name, size_t namelen)
{
    char dir[64], link[4096], line[256];
    snprintf(dir, sizeof dir, "/sys/dev/char/%u:%u", major(rdev), minor(rdev));
    char sub[96];
    snprintf(sub, sizeof sub, "%s/subsystem", dir);
    ssize_t n = readlink(sub, link, sizeof link - 1);
    if (n <= 0)
        return false;
    link[n] = '\0';
    snprintf(cls, clslen, "%s", basename(link));
    name[0] = '\0';
    snprintf(sub, sizeof sub, "%s/uevent", dir);
    FILE *f = fopen(sub, "re");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "DEVNAME=", 8) == 0)
            snprintf(name, namelen, "%.*s", (int)strcspn(line + 8, "\n"), line + 8);
    if (f)
        fclose(f);
    return true;
}

/* `name` is one of the kernel's consoles now (/sys/class/tty/console/active:
 * "ttyS0 tty0"): its screen and keyboard are the machine's. */
static bool active_console(const char *name)
{
    char line[256];
    FILE *f = fopen("/sys/class/tty/console/active", "re");
    bool found = false;
    if (f && fgets(line, sizeof line, f))
        for (char *save = NULL, *w = strtok_r(line, " \n", &save); w && !found;
             w = strtok_r(NULL, " \n", &save))
            found = strcmp(w, name) == 0;
    if (f)
        fclose(f);
    return found;
}

/* Why the device may not be granted, or NULL. */
static const char *refusal(dev_t rdev, char *cls, size_t clslen, char *name, size_t namelen)
{
    unsigned maj = major(rdev), min = minor(rdev);
    if (maj >= PTS_MAJOR_FIRST && maj <= PTS_MAJOR_LAST)
        return "a pseudo-terminal of the host: another session's keystrokes";
    if (maj == VT_MAJOR && min < VT_MINORS)
        return "a virtual console: its screen and keyboard";
    for (size_t i = 0; i < sizeof refused_numbers / sizeof refused_numbers[0]; i++)
        if (refused_numbers[i].major == maj &&
            (refused_numbers[i].minor < 0 || (unsigned)refused_numbers[i].minor == min)) {
            sysfs_identity(rdev, cls, clslen, name, namelen); /* for the message, if listed */
            return refused_numbers[i].why;
        }
    if (!sysfs_identity(rdev, cls, clslen, name, namelen))
        return NULL; /* no class (NVIDIA's nodes): the driver's own access control */
    if (strcmp(cls, "tty") == 0 && active_console(name))
        return "the kernel's console: the machine's screen and keyboard";
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strcmp(cls, refused[i].class) == 0 && (!refused[i].name || strcmp(name, refused[i].name) == 0))
            return refused[i].why;
    return NULL;
}

int device_grant_judge(const char *path, const struct stat *st, char *err, size_t errlen)
{
    if (S_ISLNK(st->st_mode)) {
        snprintf(err, errlen, "devices: %s is a symbolic link: name the device node itself", path);
        return -1;
    }
    if (S_ISBLK(st->st_mode)) {
        snprintf(err, errlen,
                 "devices: %s is a block device: it reads and writes the disk beneath every file rule", path);
        return -1;
    }
    if (!S_ISCHR(st->st_mode)) {
        snprintf(err, errlen, "devices: %s is not a character device", path);
        return -1;
    }
    char cls[64] = "", name[128] = "";
    const char *why = refusal(st->st_rdev, cls, sizeof cls, name, sizeof name);
    if (why) {
        snprintf(err, errlen, "devices: %s (%u:%u%s%s) may not be granted: %s", path, major(st->st_rdev),
                 minor(st->st_rdev), name[0] ? ", " : "", name, why);
        return -1;
    }
    return 0;
}

int device_grant_check(const char *path, struct stat *st, char *err, size_t errlen)
{
    if (lstat(path, st) != 0) {
        snprintf(err, errlen, "devices: %s: %s", path, strerror(errno));
        return -1;
    }
    return device_grant_judge(path, st, err, errlen);
}
