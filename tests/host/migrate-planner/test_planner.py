# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of compat/cocci/cdev_migrate without spatch: the text helpers, the judgements on
C expressions, the edits, and the planner's decisions on facts recorded as the SmPL rules
record them (tiny.c, lone.c beside this file). Run by tests/host/t-migrate-planner.sh; prints
one "ok - ..." or "not ok - ..." line per test."""

import os
import sys
import tempfile
import unittest

from cdev_migrate import facts, run, sites, text
from cdev_migrate.edit import apply_edits
from cdev_migrate.planner import Planner

HERE = os.path.dirname(os.path.abspath(__file__))


class Pos(object):
    """One spatch position: 1-based lines, 0-based columns, the enclosing function."""

    def __init__(self, path, needle, fn, nth=0):
        code = open(path).read()
        a = -1
        for _ in range(nth + 1):
            a = code.index(needle, a + 1)
        b = a + len(needle)
        self.file = path
        self.line, self.column = self._lc(code, a)
        self.line_end, self.column_end = self._lc(code, b)
        self.current_element = fn

    @staticmethod
    def _lc(code, off):
        line = code.count('\n', 0, off) + 1
        return str(line), str(off - (code.rfind('\n', 0, off) + 1))


def reset():
    for table in (facts.REGS, facts.UNREGS, facts.MEMBER_TYPES, facts.LOCALS, facts.FOPS,
                  facts.MINORS):
        table.clear()
    for s in (facts.FIELDS, facts.IDENTS, facts.DEVM, facts.MINOR_VARS):
        s.clear()
    del facts.FREES[:]
    text.SRCS.clear()


def record_tiny(path):
    """What the rules record for tiny.c: the two calls, the stored result, both statements."""
    reg = [Pos(path, 'register_chrdev', 'tiny_init')]
    unreg = [Pos(path, 'unregister_chrdev', 'tiny_exit')]
    facts.add_call(facts.REGS, 'register_chrdev', reg)
    facts.add_call(facts.UNREGS, 'unregister_chrdev', unreg)
    r = facts.REGS[facts.key(reg)]
    r['ctx'] = 'assign'
    r['stmt'] = True
    r['x'] = facts.span_of([Pos(path, 'tiny_major', 'tiny_init', nth=1)])
    facts.UNREGS[facts.key(unreg)]['stmt'] = True


def main_in(tmp, files):
    os.environ['CDEV_COMPAT_MIGRATE_OUT'] = tmp
    os.environ['CDEV_COMPAT_MIGRATE_FILES'] = '\n'.join(files)
    os.environ['CDEV_COMPAT_MIGRATE_MODE'] = 'patch'
    run.main()
    with open(os.path.join(tmp, 'status')) as fh:
        status = [line.split('\t') for line in fh.read().splitlines()]
    with open(os.path.join(tmp, 'messages')) as fh:
        return status, fh.read()


class TextTest(unittest.TestCase):
    def test_blank_keeps_offsets(self):
        c = 'a = "x // y"; /* c */ b; // d\n'
        out = text.blank(c)
        self.assertEqual(len(out), len(c))
        self.assertEqual(out.split(), ['a', '=', '"', '";', 'b;'])

    def test_blank_pp_blanks_continued_directives(self):
        c = '#define X \\\n\t1\nint y;\n'
        self.assertEqual(text.blank_pp(c).strip(), 'int y;')

    def test_split_top_ignores_nested_commas(self):
        s = 'a, f(b, c), d[1, 2]'
        self.assertEqual([s[a:b].strip() for a, b in text.split_top(s)],
                         ['a', 'f(b, c)', 'd[1, 2]'])


class SitesTest(unittest.TestCase):
    def test_int_value_follows_defines(self):
        self.assertEqual(sites.int_value('N', {'N': '(4)'}), 4)
        self.assertIsNone(sites.int_value('n', {}))

    def test_side_effect_free(self):
        self.assertTrue(sites.side_effect_free('dev->major'))
        self.assertFalse(sites.side_effect_free('next_major()'))
        self.assertFalse(sites.side_effect_free('i++'))


class EditTest(unittest.TestCase):
    def setUp(self):
        reset()

    def test_apply_edits_replaces_spans_and_inserts_lines(self):
        path = os.path.join(tempfile.mkdtemp(), 'e.c')
        with open(path, 'w') as fh:
            fh.write('int a;\nint b;\n')
        s = text.src(path)
        # a line inserted after line 1, a span replaced in line 1
        self.assertEqual(apply_edits(s, [(4, 5, 'x')], [(1, 'int c;')]),
                         'int x;\nint c;\nint b;\n')


class PlannerTest(unittest.TestCase):
    def setUp(self):
        reset()
        self.tmp = tempfile.mkdtemp()

    def test_one_static_handle_beside_the_major(self):
        path = os.path.join(HERE, 'tiny.c')
        record_tiny(path)
        pl = Planner([path])
        pl.plan()
        self.assertEqual(pl.refusals, [])
        self.assertEqual(len(pl.groups), 1)
        status, msgs = main_in(self.tmp, [path])
        self.assertEqual(msgs, '')
        self.assertEqual(status[0][:2], ['converted', path])
        with open(status[0][2]) as fh:
            new = fh.read()
        self.assertIn('static struct cdev_compat_region tiny_region;\n', new)
        self.assertIn('tiny_major = cdev_compat_register_chrdev(&tiny_region, 0, "tiny",\n'
                      '\t\t\t\t\t\t &tiny_fops);\n', new)
        self.assertIn('\tcdev_compat_unregister(&tiny_region);\n', new)
        self.assertIn('#define CDEV_COMPAT_DEFINE_HELPERS\n#include <cdev_compat.h>\n', new)

    def test_unregister_without_its_registration_is_refused(self):
        path = os.path.join(HERE, 'lone.c')
        unreg = [Pos(path, 'unregister_chrdev', 'lone_exit')]
        facts.add_call(facts.UNREGS, 'unregister_chrdev', unreg)
        facts.UNREGS[facts.key(unreg)]['stmt'] = True
        status, msgs = main_in(self.tmp, [path])
        self.assertEqual(status, [['refused', path, '']])
        self.assertIn('lone.c:7: not converted: unregister_chrdev(lone_major): no registration '
                      'in the files given keeps its major there', msgs)


def last_line(exc):
    lines = [x for x in exc.splitlines() if x.strip()]
    return lines[-1] if lines else '?'


class Result(unittest.TextTestResult):
    """One ok / not ok line per test, for tests/host/run-checks.sh."""

    def addSuccess(self, test):
        print('ok - %s' % test.id())

    def addFailure(self, test, err):
        print('not ok - %s: %s' % (test.id(), last_line(self._exc_info_to_string(err, test))))
        self.failures.append((test, ''))

    def addError(self, test, err):
        print('not ok - %s raised: %s' % (test.id(),
                                           last_line(self._exc_info_to_string(err, test))))
        self.errors.append((test, ''))


if __name__ == '__main__':
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    print('1..%d' % suite.countTestCases())
    res = unittest.TextTestRunner(stream=open(os.devnull, 'w'), resultclass=Result).run(suite)
    sys.exit(0 if res.wasSuccessful() else 1)
