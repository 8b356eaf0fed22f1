# SPDX-License-Identifier: GPL-2.0-only
"""What the planner works with: a register or unregister call site, the names the edits write,
and small judgements on C expression text (a constant, free of side effects, an lvalue)."""

import re

from .text import IDENT, blank_keep, strip_parens


MAJOR_H = set((
    'MEM_MAJOR RAMDISK_MAJOR FLOPPY_MAJOR PTY_MASTER_MAJOR IDE0_MAJOR HD_MAJOR '
    'PTY_SLAVE_MAJOR TTY_MAJOR TTYAUX_MAJOR LP_MAJOR VCS_MAJOR LOOP_MAJOR '
    'SCSI_DISK0_MAJOR SCSI_TAPE_MAJOR MD_MAJOR MISC_MAJOR SCSI_CDROM_MAJOR MUX_MAJOR '
    'XT_DISK_MAJOR INPUT_MAJOR SOUND_MAJOR CDU31A_CDROM_MAJOR JOYSTICK_MAJOR '
    'GOLDSTAR_CDROM_MAJOR OPTICS_CDROM_MAJOR SANYO_CDROM_MAJOR MITSUMI_X_CDROM_MAJOR '
    'MFM_ACORN_MAJOR SCSI_GENERIC_MAJOR IDE1_MAJOR DIGICU_MAJOR DIGI_MAJOR '
    'MITSUMI_CDROM_MAJOR CDU535_CDROM_MAJOR STL_SERIALMAJOR MATSUSHITA_CDROM_MAJOR '
    'STL_CALLOUTMAJOR MATSUSHITA_CDROM2_MAJOR QIC117_TAPE_MAJOR MATSUSHITA_CDROM3_MAJOR '
    'MATSUSHITA_CDROM4_MAJOR STL_SIOMEMMAJOR ACSI_MAJOR AZTECH_CDROM_MAJOR FB_MAJOR '
    'MTD_BLOCK_MAJOR CM206_CDROM_MAJOR IDE2_MAJOR IDE3_MAJOR Z8530_MAJOR XPRAM_MAJOR '
    'NETLINK_MAJOR PS2ESDI_MAJOR IDETAPE_MAJOR Z2RAM_MAJOR APBLOCK_MAJOR DDV_MAJOR '
    'NBD_MAJOR RISCOM8_NORMAL_MAJOR DAC960_MAJOR RISCOM8_CALLOUT_MAJOR MKISS_MAJOR '
    'DSP56K_MAJOR IDE4_MAJOR IDE5_MAJOR SCSI_DISK1_MAJOR SCSI_DISK2_MAJOR '
    'SCSI_DISK3_MAJOR SCSI_DISK4_MAJOR SCSI_DISK5_MAJOR SCSI_DISK6_MAJOR '
    'SCSI_DISK7_MAJOR COMPAQ_SMART2_MAJOR COMPAQ_SMART2_MAJOR1 COMPAQ_SMART2_MAJOR2 '
    'COMPAQ_SMART2_MAJOR3 COMPAQ_SMART2_MAJOR4 COMPAQ_SMART2_MAJOR5 COMPAQ_SMART2_MAJOR6 '
    'COMPAQ_SMART2_MAJOR7 SPECIALIX_NORMAL_MAJOR SPECIALIX_CALLOUT_MAJOR AURORA_MAJOR '
    'I2O_MAJOR SHMIQ_MAJOR SCSI_CHANGER_MAJOR IDE6_MAJOR IDE7_MAJOR IDE8_MAJOR '
    'MTD_CHAR_MAJOR IDE9_MAJOR DASD_MAJOR MDISK_MAJOR UBD_MAJOR PP_MAJOR JSFD_MAJOR '
    'PHONE_MAJOR COMPAQ_CISS_MAJOR COMPAQ_CISS_MAJOR1 COMPAQ_CISS_MAJOR2 '
    'COMPAQ_CISS_MAJOR3 COMPAQ_CISS_MAJOR4 COMPAQ_CISS_MAJOR5 COMPAQ_CISS_MAJOR6 '
    'COMPAQ_CISS_MAJOR7 VIODASD_MAJOR VIOCD_MAJOR ATARAID_MAJOR SCSI_DISK8_MAJOR '
    'SCSI_DISK9_MAJOR SCSI_DISK10_MAJOR SCSI_DISK11_MAJOR SCSI_DISK12_MAJOR '
    'SCSI_DISK13_MAJOR SCSI_DISK14_MAJOR SCSI_DISK15_MAJOR UNIX98_PTY_MASTER_MAJOR '
    'UNIX98_PTY_SLAVE_MAJOR DRBD_MAJOR RTF_MAJOR RAW_MAJOR USB_ACM_MAJOR '
    'USB_ACM_AUX_MAJOR USB_CHAR_MAJOR MMC_BLOCK_MAJOR VXVM_MAJOR VXSPEC_MAJOR '
    'VXDMP_MAJOR XENVBD_MAJOR MSR_MAJOR CPUID_MAJOR OSST_MAJOR IBM_TTY3270_MAJOR '
    'IBM_FS3270_MAJOR VIOTAPE_MAJOR BLOCK_EXT_MAJOR SCSI_OSD_MAJOR '
).split())

# Calls that may be dropped with the arguments of an unregister call: they have no side effect.
PURE_CALLS = {'num_possible_cpus', 'num_online_cpus', 'num_present_cpus', 'ARRAY_SIZE',
              'MAJOR', 'MINOR', 'MKDEV', 'sizeof', 'dev_name', 'kobject_name', 'KBUILD_MODNAME'}
REGION = 'struct cdev_compat_region'
NL = '\n'
HOLE = '\x01'   # where the handle goes in a rewritten statement
INCLUDE = '#include <cdev_compat.h>'
DEFINE = '#define CDEV_COMPAT_DEFINE_HELPERS'
CALL_RE = re.compile(r'(?<![A-Za-z0-9_])((?:__)?(?:un)?register_chrdev)(?![A-Za-z0-9_])')


class Refusal(Exception):
    pass


def loc_name(k):
    # what a location key names, for messages
    if k[0] == 'var':
        return k[2]
    if k[0] == 'local':
        return k[3]
    if k[0] == 'member':
        return 'struct %s.%s' % (k[1], k[2])
    return str(k[1])


def int_value(text, defines=None, depth=0):
    t = strip_parens(blank_keep(text)).strip()
    m = re.fullmatch(r'(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*', t)
    if m:
        return int(m.group(1), 0)
    if defines is not None and depth < 8 and t in defines:
        return int_value(defines[t], defines, depth + 1)
    return None


def side_effect_free(text):
    t = blank_keep(text)
    if re.search(r'\+\+|--|(?<![=!<>])=(?!=)', t):
        return False
    for m in re.finditer(r'(' + IDENT + r')\s*\(', t):
        if m.group(1) not in PURE_CALLS:
            return False
    return True


def lvalue_like(text):
    # An identifier, *p, a member or an element: reads it twice, same value.
    t = strip_parens(blank_keep(text)).strip()
    return bool(re.fullmatch(r'[\w\s\->.\[\]*&]+', t)) and side_effect_free(t)


def width(s):
    return len(s.expandtabs(8))


def indent_to(col):
    return '\t' * (col >> 3) + ' ' * (col & 7)


class Site(object):
    # A register or unregister call and what the plan does with it.

    def __init__(self, rec, is_reg):
        self.rec = rec
        self.is_reg = is_reg
        self.file = rec['file']
        self.line = rec['line']
        self.fn = rec['fn']
        self.name = rec['name']
        self.args = [blank_keep(t).strip() for t in rec['argtexts']]
        self.raw = rec['argtexts']
        self.locs = []      # location keys
        self.inst = {}      # location key -> (how to reach the handle at this site)
        self.group = None

    def where(self):
        return '%s:%d' % (self.file, self.line)
