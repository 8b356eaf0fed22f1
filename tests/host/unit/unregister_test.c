// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs every spelling of unregister_chrdev()/__unregister_chrdev() that cdev-compat accepts
 * against a mock kernel of each arity (MOCK_ARGS), and checks that each reaches the kernel's
 * function once with the right numbers, that every argument is evaluated exactly once, and
 * that the legacy int forms see 0. Prints one TAP line per check.
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

static void expect(const char *what, int cond)
{
	printf("%sok - %d-arg kernel: %s\n", cond ? "" : "not ", MOCK_ARGS, what);
	failures += !cond;
}

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
	int rv;
	int i;

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
	(void)unregister_chrdev(get_major(16), get_name("void"));
	expect_call("(void)unregister_chrdev(M, N)", 16, 0, 256, 1);

	reset();
	i = 20;
	unregister_chrdev(i++, get_name("postinc"));
	expect("unregister_chrdev(i++, N) increments once and passes the old value",
	       i == 21 && mock_last.major == 20 && mock_last.calls == 1);

	return failures ? 1 : 0;
}
