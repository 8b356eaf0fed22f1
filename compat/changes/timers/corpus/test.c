// SPDX-License-Identifier: GPL-2.0-only
/* timers corpus test: /dev/MODULE reads "timer=N hrtimer=M" with both above 0 within 5 s. */
static int test_timers(const char *mod, char *why, size_t len)
{
	char got[128] = "";
	int timer = 0, hrtimer = 0, tries;

	for (tries = 0; tries < 50; tries++) {
		if (cc_read_dev(mod, got, sizeof(got)) < 0)
			return cc_fail(why, len, "read /dev/%s: %s", mod, strerror(errno));
		if (sscanf(got, "timer=%d hrtimer=%d", &timer, &hrtimer) == 2 && timer > 0 &&
		    hrtimer > 0)
			return 0;
		usleep(100000);
	}
	return cc_fail(why, len, "after 5 s: '%s'", got);
}
