// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs every spelling of unregister_chrdev()/__unregister_chrdev() that cdev-compat accepts
 * against a mock kernel of each arity (MOCK_ARGS), and checks that each reaches the kernel's
 * function once with the right numbers, that every argument is evaluated exactly once, that
 * "return unregister_chrdev(...);" builds in a void function (the default result is void, as
 * the kernel's), and, built with CDEV_COMPAT_UNREGISTER_RETURNS_INT, that the legacy int forms
 * see 0. Prints one TAP line per check, unbuffered, so a crash loses no line before it.
 */
#include <stdio.h>
#include <string.h>
#include <linux/fs.h>
#include <cdev_compat_unregister.h>

/* The parentheses keep the compat macro off the mock's own definition. */
struct mock_call mock_last;

static void mock_record(unsigned int major, unsigned int baseminor,
			unsigned int count, const char *name)
{
	mock_last.calls++;
	mock_last.major = major;
	mock_last.baseminor = baseminor;
	mock_last.count = count;
	mock_last.name = name;
}

#if MOCK_ARGS == 1
void (__unregister_chrdev)(unsigned int major, unsigned int baseminor,
			 unsigned int count)
{
	mock_record(major, baseminor, count, NULL);
}
#else
void (__unregister_chrdev)(unsigned int major, unsigned int baseminor,
			 unsigned int count, const char *name)
{
	mock_record(major, baseminor, count, name);
}
#endif

static int evals_major, evals_name, evals_base, evals_count, failures;

static unsigned int get_major(unsigned int m) { evals_major++; return m; }
static const char *get_name(const char *n) { evals_name++; return n; }
static unsigned int get_base(unsigned int b) { evals_base++; return b; }
static unsigned int get_count(unsigned int c) { evals_count++; return c; }

static void reset(void)
{
	memset(&mock_last, 0, sizeof(mock_last));
	evals_major = evals_name = evals_base = evals_count = 0;
}

#ifdef CDEV_COMPAT_UNREGISTER_RETURNS_INT
#define RESULT_MODE "int result"
#else
#define RESULT_MODE "void result"
#endif

static void expect(const char *what, int cond)
{
	printf("%sok - %d-arg kernel, %s: %s\n", cond ? "" : "not ", MOCK_ARGS,
	       RESULT_MODE, what);
	failures += !cond;
}

#ifndef CDEV_COMPAT_UNREGISTER_RETURNS_INT
/* A driver's exit function as public drivers write it: a void function returning a void call. */
static void exit_two(unsigned int m)
{
	return unregister_chrdev(get_major(m), get_name("exit"));
}

static void exit_four(unsigned int m)
{
	return __unregister_chrdev(get_major(m), get_base(1), get_count(2), get_name("exit4"));
}
#endif

static void expect_call(const char *form, unsigned int major, unsigned int base,
			unsigned int count, int names)
{
	char what[160];

	snprintf(what, sizeof(what), "%s calls the kernel once with %u:%u+%u", form,
		 major, base, count);
	expect(what, mock_last.calls == 1 && mock_last.major == major &&
	       mock_last.baseminor == base && mock_last.count == count);
	snprintf(what, sizeof(what), "%s evaluates each argument once", form);
	expect(what, evals_major == 1 && evals_name == names &&
	       (count == 256 || (evals_base == 1 && evals_count == 1)));
}

int main(void)
{
#ifdef CDEV_COMPAT_UNREGISTER_RETURNS_INT
	int rv;
#endif
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	reset();
	unregister_chrdev(get_major(10));
	expect_call("unregister_chrdev(M)", 10, 0, 256, 0);

	reset();
	unregister_chrdev(get_major(11), get_name("two"));
	expect_call("unregister_chrdev(M, N)", 11, 0, 256, 1);
#if MOCK_ARGS == 2
	expect("unregister_chrdev(M, N) passes the name through",
	       mock_last.name && !strcmp(mock_last.name, "two"));
#endif

	reset();
	__unregister_chrdev(get_major(12), get_base(300), get_count(1024));
	expect_call("__unregister_chrdev(M, B, C)", 12, 300, 1024, 0);

	reset();
	__unregister_chrdev(get_major(13), get_base(5), get_count(7), get_name("four"));
	expect_call("__unregister_chrdev(M, B, C, N)", 13, 5, 7, 1);

#ifndef CDEV_COMPAT_UNREGISTER_RETURNS_INT
	reset();
	exit_two(17);
	expect_call("return unregister_chrdev(M, N); in a void function", 17, 0, 256, 1);

	reset();
	exit_four(18);
	expect_call("return __unregister_chrdev(M, B, C, N); in a void function", 18, 1, 2, 1);
#else
	reset();
	rv = -1;
	if (unregister_chrdev(get_major(14), get_name("cmp")) < 0)
		rv = -2;
	else
		rv = 0;
	expect_call("if (unregister_chrdev(M, N) < 0)", 14, 0, 256, 1);
	expect("if (unregister_chrdev(M, N) < 0) sees a result >= 0", rv == 0);

	reset();
	rv = unregister_chrdev(get_major(15));
	expect_call("rv = unregister_chrdev(M)", 15, 0, 256, 0);
	expect("rv = unregister_chrdev(M) gives 0", rv == 0);

	reset();
	rv = __unregister_chrdev(get_major(19), get_base(3), get_count(4));
	expect_call("rv = __unregister_chrdev(M, B, C)", 19, 3, 4, 0);
	expect("rv = __unregister_chrdev(M, B, C) gives 0", rv == 0);
#endif

	reset();
	(void)unregister_chrdev(get_major(16), get_name("void"));
	expect_call("(void)unregister_chrdev(M, N)", 16, 0, 256, 1);

	reset();
	i = 20;
	unregister_chrdev(i++, get_name("postinc"));
	expect("unregister_chrdev(i++, N) increments once and passes the old value",
	       i == 21 && mock_last.major == 20 && mock_last.calls == 1);

	return failures ? 1 : 0;
}
