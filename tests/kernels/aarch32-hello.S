@ tests/kernels/aarch32-hello.S — a static AArch32 (EABI) program for the
@ arm64 VM's foreign-ABI check: write(1, msg) and exit(0), raw system calls.
@ Outside the sandbox it prints its line; inside, the seccomp filter (native
@ arm64 only, bad-arch action KILL_PROCESS) must kill it on the write.
    .syntax unified
    .arm
    .global _start
_start:
    mov r0, #1
    ldr r1, =msg
    mov r2, #(msgend - msg)
    mov r7, #4          @ __NR_write (EABI)
    svc #0
    mov r0, #0
    mov r7, #1          @ __NR_exit
    svc #0
msg:
    .ascii "aarch32 says hello\n"
msgend:
    .align 2
