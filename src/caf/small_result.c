/*
 * small_result.c - calling CO_REDUCE's operator when it returns a derived
 * type of 16 bytes or less.
 *
 * On x86-64 such a result comes back in registers, one per eightbyte: the
 * next of rax, rdx when the eightbyte holds any integer, logical or
 * character data; the next of xmm0, xmm1 when it holds only reals; st0 for
 * a lone real(10). Which one depends on the component types, and the
 * descriptor gives only the size. So the operator is called twice, with
 * every candidate register preset to a different pattern each time. The
 * operator is pure and gets the same operands, so the registers that carry
 * the result hold the same bytes after both calls, while bytes it did not
 * write still hold the patterns. Each possible assignment of registers whose
 * written bytes all agree is a candidate; the result is used when every
 * candidate gives the same bytes, and refused (an error, never a guess)
 * otherwise. That leaves out one family: 16 bytes where one eightbyte is
 * all reals and the other is not (a real(8) and an integer, in either
 * order) come back in rax and xmm0 whichever comes first in memory.
 *
 * The same call tells real(10) from real(16), which gfortran describes
 * alike (16 bytes of type real): the first comes back on the x87 stack,
 * the second in xmm0.
 */
#include <string.h>

#include "caf.h"

#if defined(__x86_64__)

/* What the registers held after one call; layout known to the assembly. */
typedef struct returned {
    uint64_t reg[4];        /* rax, rdx, xmm0, xmm1 (low halves) */
    unsigned char st0[16];  /* st0 as 10 bytes, when the call pushed it */
    uint32_t pushed;        /* non-zero when the x87 stack grew */
    uint64_t xmm0_high;     /* the high half of xmm0 */
} returned_t;

enum { RAX, RDX, XMM0, XMM1 };

/* caf_call_preset(fn, a, b, pattern, out): out = registers after fn(a, b)
 * with rax, rdx, xmm0 and xmm1 preset to pattern. A value the call left on
 * the x87 stack is popped into out->st0 so that the stack stays balanced. */
void caf_call_preset(void *fn, const void *a, const void *b, uint64_t pattern, returned_t *out);
__asm__(".text\n"
        ".globl caf_call_preset\n"
        ".hidden caf_call_preset\n"
        ".type caf_call_preset, @function\n"
        "caf_call_preset:\n"
        "    pushq %rbx\n"
        "    subq $16, %rsp\n"
        "    movq %r8, %rbx\n"
        "    fnstsw (%rsp)\n"
        "    movq %rdi, %r11\n"
        "    movq %rsi, %rdi\n"
        "    movq %rdx, %rsi\n"
        "    movq %rcx, %rax\n"
        "    movq %rcx, %rdx\n"
        "    movq %rcx, %xmm0\n"
        "    movq %rcx, %xmm1\n"
        "    call *%r11\n"
        "    movq %rax, 0(%rbx)\n"
        "    movq %rdx, 8(%rbx)\n"
        "    movq %xmm0, 16(%rbx)\n"
        "    movq %xmm1, 24(%rbx)\n"
        "    movhps %xmm0, 56(%rbx)\n"
        "    fnstsw 2(%rsp)\n"
        "    movzwl (%rsp), %eax\n"
        "    movzwl 2(%rsp), %ecx\n"
        "    xorl %ecx, %eax\n"
        "    andl $0x3800, %eax\n" /* the stack-top field of the status word */
        "    movl %eax, 48(%rbx)\n"
        "    jz 1f\n"
        "    fstpt 32(%rbx)\n"
        "1:\n"
        "    addq $16, %rsp\n"
        "    popq %rbx\n"
        "    ret\n"
        ".size caf_call_preset, .-caf_call_preset\n");

_Static_assert(offsetof(returned_t, st0) == 32 && offsetof(returned_t, pushed) == 48 &&
                   offsetof(returned_t, xmm0_high) == 56,
               "the assembly stores at these offsets");

#define PATTERN_1 0x5a5a5a5a5a5a5a5aULL
#define PATTERN_2 0xa5a5a5a5a5a5a5a5ULL

/* Bytes [0, n) of the register the two calls left as `one` and `two`:
 * written bytes into out, bytes left at the patterns as zero. Returns
 * false when a written byte differs between the calls or none was
 * written: this register did not carry the result. */
static bool stable_bytes(uint64_t one, uint64_t two, size_t n, unsigned char *out)
{
    bool written = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)(one >> (8 * i)), y = (unsigned char)(two >> (8 * i));
        if (0x5a == x && 0xa5 == y) {
            out[i] = 0;
            continue;
        }
        if (x != y) {
            return false;
        }
        out[i] = x;
        written = true;
    }
    return written;
}

int caf_call_small(void *fn, void *res, const void *a, const void *b, size_t size)
{
    /* Register per eightbyte, in each class sequence: II, IS, SI, SS. */
    static const int layouts[4][2] = {{RAX, RDX}, {RAX, XMM0}, {XMM0, RAX}, {XMM0, XMM1}};
    returned_t one, two;
    caf_call_preset(fn, a, b, PATTERN_1, &one);
    caf_call_preset(fn, a, b, PATTERN_2, &two);
    if (one.pushed || two.pushed) {
        if (!one.pushed || !two.pushed || 16 != size || 0 != memcmp(one.st0, two.st0, 10)) {
            return -1;
        }
        memset(res, 0, size);
        memcpy(res, one.st0, 10);
        return 0;
    }
    unsigned char found[16], candidate[16];
    bool any = false;
    for (int l = 0; l < 4; l++) {
        /* One eightbyte: only the first register of a layout matters. */
        if (size <= 8 && (1 == l || 3 == l)) {
            continue;
        }
        bool ok = true;
        for (size_t e = 0; e * 8 < size && ok; e++) {
            size_t n = size - e * 8 < 8 ? size - e * 8 : 8;
            int r = layouts[l][e];
            ok = stable_bytes(one.reg[r], two.reg[r], n, candidate + e * 8);
        }
        if (!ok) {
            continue;
        }
        if (any && 0 != memcmp(found, candidate, size)) {
            return -1;
        }
        memcpy(found, candidate, size);
        any = true;
    }
    if (!any) {
        return -1;
    }
    memcpy(res, found, size);
    return 0;
}

int caf_call_wide_real(void *fn, void *res, const void *a, const void *b)
{
    returned_t r;
    caf_call_preset(fn, a, b, PATTERN_1, &r);
    if (r.pushed) {
        memset(res, 0, 16);
        memcpy(res, r.st0, 10);
        return 10;
    }
    memcpy(res, &r.reg[XMM0], 8);
    memcpy((char *)res + 8, &r.xmm0_high, 8);
    return 16;
}

#else

int caf_call_small(void *fn, void *res, const void *a, const void *b, size_t size)
{
    return -1;
}

int caf_call_wide_real(void *fn, void *res, const void *a, const void *b)
{
    return -1;
}

#endif
