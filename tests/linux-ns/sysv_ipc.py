#!/usr/bin/python3
"""sysv_ipc.py ACTION KEY: the host's IPC objects, through libc (ctypes).

  create KEY   host side: a SysV shared memory segment holding "host-secret",
               a SysV message queue and a POSIX message queue (/has-KEY)
               holding one message each; prints the shm and msg ids
  check KEY    host side: prints what they hold now (then removes them
               with "remove")
  attack KEY SHMID MSQID   inside: tries to find, read, overwrite and
               drain each; prints ESCAPED: ... for every success
  remove KEY
"""
import ctypes, os, sys

libc = ctypes.CDLL(None, use_errno=True)
librt = ctypes.CDLL("librt.so.1", use_errno=True)
IPC_CREAT, IPC_RMID, IPC_NOWAIT = 0o1000, 0, 0o4000
O_RDWR, O_CREAT, O_NONBLOCK = os.O_RDWR, os.O_CREAT, os.O_NONBLOCK
libc.shmat.restype = ctypes.c_void_p
librt.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
SECRET = b"host-secret"


class Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 64)]


def err(what):
    return "%s: %s" % (what, os.strerror(ctypes.get_errno()))


def create(key):
    shm = libc.shmget(key, 4096, IPC_CREAT | 0o666)
    addr = libc.shmat(shm, None, 0)
    ctypes.memmove(addr, SECRET, len(SECRET) + 1)
    libc.shmdt(ctypes.c_void_p(addr))
    msq = libc.msgget(key, IPC_CREAT | 0o666)
    m = Msg(1, SECRET)
    libc.msgsnd(msq, ctypes.byref(m), len(SECRET) + 1, 0)
    mq = librt.mq_open(b"/has-%d" % key, O_RDWR | O_CREAT, 0o666, None)
    librt.mq_send(mq, SECRET, len(SECRET), 0)
    librt.mq_close(mq)
    print(shm, msq)


def check(key):
    shm = libc.shmget(key, 0, 0)
    addr = libc.shmat(shm, None, 0) if shm >= 0 else None
    print("shm:", ctypes.string_at(addr).decode() if addr not in (None, ctypes.c_void_p(-1).value) else err("shmat"))
    msq = libc.msgget(key, 0)
    m = Msg()
    n = libc.msgrcv(msq, ctypes.byref(m), 64, 0, IPC_NOWAIT)
    print("msg:", m.mtext.decode() if n > 0 else err("msgrcv"))
    mq = librt.mq_open(b"/has-%d" % key, O_RDWR | O_NONBLOCK, 0, None)
    buf = ctypes.create_string_buffer(8192)
    n = librt.mq_receive(mq, buf, 8192, None) if mq >= 0 else -1
    print("mq:", buf.value.decode() if n > 0 else err("mq_receive"))


def attack(key, shmid, msqid):
    for shm in (shmid, libc.shmget(key, 0, 0)):
        addr = libc.shmat(shm, None, 0) if shm >= 0 else None
        if addr not in (None, ctypes.c_void_p(-1).value):
            print("ESCAPED: read host shm:", ctypes.string_at(addr).decode())
            ctypes.memmove(addr, b"owned\0", 6)
        else:
            print("refused:", err("shmat"))
    m = Msg()
    for msq in (msqid, libc.msgget(key, 0)):
        if msq >= 0 and libc.msgrcv(msq, ctypes.byref(m), 64, 0, IPC_NOWAIT) > 0:
            print("ESCAPED: took a host message:", m.mtext.decode())
        elif msq >= 0 and libc.msgsnd(msq, ctypes.byref(Msg(1, b"owned")), 6, IPC_NOWAIT) == 0:
            print("ESCAPED: sent to a host queue")
        else:
            print("refused:", err("msgrcv/msgsnd"))
    mq = librt.mq_open(b"/has-%d" % key, O_RDWR | O_NONBLOCK, 0, None)
    if mq >= 0:
        print("ESCAPED: opened the host's POSIX queue")
    else:
        print("refused:", err("mq_open"))


def remove(key):
    shm = libc.shmget(key, 0, 0)
    if shm >= 0:
        libc.shmctl(shm, IPC_RMID, None)
    msq = libc.msgget(key, 0)
    if msq >= 0:
        libc.msgctl(msq, IPC_RMID, None)
    librt.mq_unlink(b"/has-%d" % key)


action, key = sys.argv[1], int(sys.argv[2])
if action == "create":
    create(key)
elif action == "check":
    check(key)
elif action == "attack":
    attack(key, int(sys.argv[3]), int(sys.argv[4]))
else:
    remove(key)
