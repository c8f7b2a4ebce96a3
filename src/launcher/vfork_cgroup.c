/*
 * vfork_cgroup.c - vfork with the child started in a cgroup.
 *
 * Design notes:
 *  - Neither fork nor vfork can start a process in a cgroup; clone3 with
 *    CLONE_INTO_CGROUP can, and with CLONE_VM | CLONE_VFORK it is vfork:
 *    the child runs in drover's memory, no page table is copied (a fork of
 *    drover, with its libraries and its server thread, costs more than the
 *    launch of a rank otherwise does), and drover resumes once the child
 *    has exec'd or exited.
 *  - glibc wraps no such clone3, and a child sharing the caller's stack
 *    would overwrite the frames the caller returns through. So the system
 *    call is made here, in a few instructions of x86_64 assembly, and the
 *    child starts on a stack of its own: one mapping with a guard page
 *    below it, made at a thread's first call and reused by every child it
 *    starts (CLONE_VFORK holds the caller until the child is done with
 *    it). Each thread has its own: two threads launch at once
 *    (launch_threads.c).
 *  - Where this cannot be used, vfork_cgroup fails with ENOSYS and the
 *    caller falls back: on other architectures; in AddressSanitizer builds,
 *    whose runtime the child enters on a stack that is not its thread's
 *    (tried: a child whose exec failed left the sanitizer's thread
 *    registry locked in drover's memory, and drover hung at its end); and
 *    on a kernel that refuses the flags (before 5.7), which is asked only
 *    once.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launcher.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif

#if defined(__x86_64__) && !defined(ASAN_BUILD) && defined(SYS_clone3)

/* What a child needs until exec: some system calls' frames, and the
 * dynamic linker's, should it bind a symbol on the child's first call. */
#define STACK_SIZE (64 * 1024)

/* Above its guard page; made once per thread, never unmapped (the
 * threads that launch live as long as the process). */
static __thread char *stack;
static bool refused; /* atomic */

static bool make_stack(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, STACK_SIZE + (size_t)page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (MAP_FAILED == map) {
        return false;
    }
    if (0 != mprotect(map, (size_t)page, PROT_NONE)) {
        munmap(map, STACK_SIZE + (size_t)page);
        return false;
    }
    stack = map + page;
    return true;
}

/* clone3(args); the child calls fn(arg) on args' stack and exits with 127
 * should fn return. Returns the pid, or -errno. Only rax, rcx and r11 are
 * changed by the system call, so fn and arg wait in r12 and r13. */
static long clone3_call(struct clone_args *args, void (*fn)(const void *), const void *arg)
{
    register long rax __asm__("rax") = SYS_clone3;
    register void (*r12)(const void *) __asm__("r12") = fn;
    register const void *r13 __asm__("r13") = arg;
    __asm__ volatile("syscall\n\t"
                     "test %%rax, %%rax\n\t"
                     "jnz 1f\n\t"
                     /* The child: rsp is the top of its stack. */
                     "and $-16, %%rsp\n\t"
                     "xor %%ebp, %%ebp\n\t"
                     "mov %%r13, %%rdi\n\t"
                     "call *%%r12\n\t"
                     "mov $127, %%edi\n\t"
                     "mov %[exit], %%eax\n\t"
                     "syscall\n\t"
                     "ud2\n"
                     "1:"
                     : "+a"(rax)
                     : "D"(args), "S"(sizeof(*args)), "r"(r12), "r"(r13), [exit] "i"(SYS_exit_group)
                     : "rcx", "r11", "memory");
    return rax;
}

pid_t vfork_cgroup(int cgroup_fd, void (*fn)(const void *), const void *arg)
{
    long rc = -ENOSYS;
    if (!__atomic_load_n(&refused, __ATOMIC_RELAXED)) {
        rc = NULL != stack || make_stack() ? 0 : -ENOMEM;
    }
    if (0 == rc) {
        struct clone_args args = {
            .flags = CLONE_VM | CLONE_VFORK | CLONE_INTO_CGROUP,
            .exit_signal = SIGCHLD,
            .stack = (uint64_t)(uintptr_t)stack,
            .stack_size = STACK_SIZE,
            .cgroup = (uint64_t)cgroup_fd,
        };
        rc = clone3_call(&args, fn, arg);
        /* No clone3, or one that does not know these flags. */
        if (-ENOSYS == rc || -EINVAL == rc || -E2BIG == rc) {
            __atomic_store_n(&refused, true, __ATOMIC_RELAXED);
        }
    }
    if (rc < 0) {
        errno = (int)-rc;
        return -1;
    }
    return (pid_t)rc;
}

#else

pid_t vfork_cgroup(int cgroup_fd, void (*fn)(const void *), const void *arg)
{
    errno = ENOSYS;
    return -1;
}

#endif
