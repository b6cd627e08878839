#!/usr/bin/python3
"""lab_clients.py COMMAND ARGS -- clients transparent.sh runs inside the
sandbox, with no proxy settings.

  echo HOST PORT            socket.create_connection, send "ping", print what comes back
  query NAME [TYPE]         one DNS query to 127.0.0.53: "rcode=N addr=A" or "no answer"
  hostile                   500 hostile datagrams to 127.0.0.53:53, then a proper query;
                            prints "answers-to-garbage=N" and the proper answer
  scan FIRST LAST PORTS     connect to 127.64.0.FIRST..LAST on each port; prints
                            "HOST:PORT refused|reset|closed|bytes"
  udp                       UDP to other ports and addresses; prints one line each
  rebind HOST PORT FLAG     echo, wait for the file FLAG, echo again
"""
import errno
import os
import random
import socket
import struct
import sys
import time


def question(name, qtype=1):
    q = b""
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\0" + struct.pack(">HH", qtype, 1)


def message(name, qtype=1, ident=0x4242, flags=0x0100):
    return struct.pack(">HHHHHH", ident, flags, 1, 0, 0, 0) + question(name, qtype)


def query(name, qtype=1):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    s.sendto(message(name, qtype), ("127.0.0.53", 53))
    try:
        r = s.recv(1024)
    except socket.timeout:
        return "no answer"
    an = struct.unpack(">H", r[6:8])[0]
    return "rcode=%d addr=%s" % (r[3] & 15, socket.inet_ntoa(r[-4:]) if an else "-")


def echo(host, port):
    try:
        c = socket.create_connection((host, int(port)), timeout=5)
        c.sendall(b"ping")
        data = c.recv(100)
        print("echo:" + data.decode(errors="replace") if data else "closed")
    except OSError as e:
        print("error:" + errno.errorcode.get(e.errno, str(e)))


def hostile():
    rng = random.Random(26)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    crafted = [
        b"", b"\x00", message("origin.test")[:11],                   # shorter than a header
        message("origin.test")[:20],                                   # truncated question
        message("origin.test", flags=0x8100),                          # a response (QR)
        message("origin.test", flags=0x0900),                          # opcode 1
        message("origin.test", flags=0x0300),                          # TC
        struct.pack(">HHHHHH", 1, 0x100, 2, 0, 0, 0) + question("origin.test") * 2,   # two questions
        struct.pack(">HHHHHH", 1, 0x100, 1, 0, 0, 0) + b"\xc0\x0c\x00\x01\x00\x01",    # pointer to itself
        struct.pack(">HHHHHH", 1, 0x100, 1, 0, 0, 0) + b"\x01a\xc0\x0c\x00\x01\x00\x01",  # loop via a label
        message("origin.test") + b"\0" * 5000,                         # huge (over 4096)
        struct.pack(">HHHHHH", 1, 0x100, 1, 0, 0, 0) + b"\x3f" + b"a" * 63 * 5,  # name past 255
        message("origin.test", qtype=1)[:-2] + b"\x00\x03",            # class CH
        struct.pack(">HHHHHH", 1, 0x100, 1, 0, 0, 0) + b"\x03a.b\x00\x00\x01\x00\x01",  # dot in a label
    ]
    for i in range(500):
        if i < len(crafted):
            d = crafted[i]
        else:
            d = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 600)))
        s.sendto(d, ("127.0.0.53", 53))
    s.settimeout(1.5)
    n = 0
    try:
        while True:
            s.recv(4096)
            n += 1
    except socket.timeout:
        pass
    print("answers-to-garbage=%d" % n)
    print("after:" + query("origin.test"))


def scan(first, last, ports):
    for h in range(int(first), int(last) + 1):
        for p in ports.split(","):
            host = "127.64.0.%d" % h
            try:
                c = socket.create_connection((host, int(p)), timeout=3)
                c.sendall(b"GET / HTTP/1.0\r\n\r\n")
                data = c.recv(100)
                what = "bytes" if data else "closed"
                c.close()
            except ConnectionResetError:
                # At the connect, the send or the read: the relay may reset
                # before the client's connect has even returned.
                what = "reset"
            except ConnectionRefusedError:
                what = "refused"
            except OSError as e:
                what = "error-" + errno.errorcode.get(e.errno, str(e))
            print("%s:%s %s" % (host, p, what))


def udp():
    for addr, port in (("127.64.0.1", 8080), ("127.64.0.1", 53), ("1.1.1.1", 53), ("8.8.8.8", 53)):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(1)
        try:
            s.connect((addr, port))
            s.send(message("origin.test"))
            s.recv(1024)
            what = "answered"
        except socket.timeout:
            what = "no-answer"
        except OSError as e:
            what = "error-" + errno.errorcode.get(e.errno, str(e))
        print("udp %s:%d %s" % (addr, port, what))


def rebind(host, port, flag):
    echo(host, port)
    sys.stdout.flush()
    for _ in range(100):
        if os.path.exists(flag):
            break
        time.sleep(0.1)
    echo(host, port)


cmd = sys.argv[1]
if cmd == "echo":
    echo(sys.argv[2], sys.argv[3])
elif cmd == "query":
    print(query(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1))
elif cmd == "hostile":
    hostile()
elif cmd == "scan":
    scan(sys.argv[2], sys.argv[3], sys.argv[4])
elif cmd == "udp":
    udp()
elif cmd == "rebind":
    rebind(sys.argv[2], sys.argv[3], sys.argv[4])
