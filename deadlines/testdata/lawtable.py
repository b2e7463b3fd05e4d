# Generates lawTable2024To2031 in ../lawtable_test.go: an independent oracle applying the rules of
# research/no-deadlines.md §1 and §2 on Python's calendar and python-dateutil's Easter.
# Run: python3 testdata/lawtable.py  (needs python-dateutil)
from dateutil.easter import easter
from datetime import date, timedelta


def hol(y):
    e = easter(y)
    return {date(y, 1, 1), e - timedelta(3), e - timedelta(2), e, e + timedelta(1), date(y, 5, 1),
            e + timedelta(39), date(y, 5, 17), e + timedelta(49), e + timedelta(50), date(y, 12, 25), date(y, 12, 26)}


def roll(d):
    while d.weekday() >= 5 or d in hol(d.year):
        d += timedelta(1)
    return d


def eom(y, m):
    return date(y, 12, 31) if m == 12 else date(y, m + 1, 1) - timedelta(1)


rows = []
for y in range(2024, 2032):
    for t in range(1, 7):
        ps, pe = date(y, 2 * t - 1, 1), eom(y, 2 * t)
        st = date(y, 8, 31) if t == 3 else (date(y + 1, 2, 10) if t == 6 else date(y, 2 * t + 2, 10))
        rows.append(("vat_return", pe + timedelta(1), st, roll(st), ps, pe))
    for m in range(1, 13):
        ps, pe = date(y, m, 1), eom(y, m)
        st = date(y + 1, 1, 5) if m == 12 else date(y, m + 1, 5)
        rows.append(("payroll_report", pe + timedelta(1), st, roll(st), ps, pe))
    ps, pe, today = date(y, 1, 1), date(y, 12, 31), date(y + 1, 1, 1)
    for k, st, r in [("tax_return", date(y + 1, 5, 31), True), ("shareholder_register_statement", date(y + 1, 1, 31), True),
                     ("annual_accounts", date(y + 1, 7, 31), False), ("general_meeting", date(y + 1, 6, 30), False)]:
        rows.append((k, today, st, roll(st) if r else st, ps, pe))
# today: the day after the period ends, or after the previous period's due date if that is later (term 3's
# 31 August can roll into September, past the end of term 4).
prev_due = {}
out = []
for k, today, st, due, ps, pe in rows:
    if k in prev_due and prev_due[k] >= today:
        today = prev_due[k] + timedelta(1)
    prev_due[k] = due
    out.append((k, today, st, due, ps, pe))
for k, today, st, due, ps, pe in out:
    print('\t{"%s", "%s", "%s", "%s", "%s", "%s"}, // %s -> %s' % (k, today, st, due, ps, pe, st.strftime("%a"), due.strftime("%a")))
