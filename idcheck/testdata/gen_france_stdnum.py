#!/usr/bin/python3
"""Generate france_stdnum_agreement.tsv: python-stdnum's verdict on generated
French identifiers (fr.siren, fr.siret, fr.tva), for idcheck's agreement test.

Run once with python-stdnum 1.18 (Debian package python3-stdnum):

    python3 gen_france_stdnum.py > france_stdnum_agreement.tsv

The inputs are drawn from a fixed seed, so the output is reproducible. They use
only the characters whose treatment idcheck and stdnum share: ASCII digits,
letters, spaces, dots and (for VAT numbers) hyphens.
"""
import random
import sys

import stdnum
import stdnum.luhn
from stdnum.exceptions import ValidationError
from stdnum.fr import siren, siret, tva

rng = random.Random(20261126)
DIGITS = '0123456789'
ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'


def luhn_digit(prefix):
    for d in DIGITS:
        if stdnum.luhn.is_valid(prefix + d):
            return d


def digits(n):
    return ''.join(rng.choice(DIGITS) for _ in range(n))


def valid_siren():
    p = digits(8)
    return p + luhn_digit(p)


def spell(s, seps):
    """Insert separators and change letter case at random."""
    out = []
    for c in s:
        if rng.random() < 0.15:
            out.append(rng.choice(seps))
        out.append(c.lower() if c.isalpha() and rng.random() < 0.3 else c)
    if rng.random() < 0.2:
        out.insert(0, ' ')
    if rng.random() < 0.2:
        out.append(' ')
    return ''.join(out)


def mutate(s):
    """A typo: change, swap, drop or add one character."""
    if not s:
        return rng.choice(DIGITS)
    i = rng.randrange(len(s))
    k = rng.randrange(5)
    if k == 0:
        return s[:i] + rng.choice(DIGITS) + s[i + 1:]
    if k == 1 and i + 1 < len(s):
        return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    if k == 2:
        return s[:i] + s[i + 1:]
    if k == 3:
        return s[:i] + rng.choice(DIGITS) + s[i:]
    return s[:i] + rng.choice('AZIO-x') + s[i + 1:]


def sirens():
    for _ in range(300):
        s = valid_siren()
        yield spell(s, ' .') if rng.random() < 0.4 else s
        yield mutate(s)
        yield digits(rng.randrange(0, 13))
    yield from ['', ' ', '.', '356000000', '000000000', '552 032 534', '552.032.534', '552-032-534', 'FR552032534']


def sirets():
    for _ in range(250):
        s = valid_siren()
        nic = digits(4)
        t = s + nic + luhn_digit(s + nic)
        yield spell(t, ' .') if rng.random() < 0.4 else t
        yield mutate(t)
        # La Poste's establishments: digit sum divisible by 5, or Luhn.
        lp = '356000000' + digits(5)
        yield lp
        # A 14-digit Luhn-valid number whose SIREN part fails Luhn.
        bad = digits(9)
        if stdnum.luhn.is_valid(bad):
            bad = bad[:8] + str((int(bad[8]) + 1) % 10)
        p = bad + digits(4)
        yield p + luhn_digit(p)
        yield digits(rng.randrange(0, 17))
    yield from ['', '35600000000048', '35600000000047', '35600000049837', '35600000000049', '552 032 534 00646']


def tvas():
    for _ in range(300):
        s = valid_siren()
        key = '%02d' % (int(s + '12') % 97)
        full = rng.choice(['FR', 'fr', 'Fr', '']) + key + s
        yield spell(full, ' .-') if rng.random() < 0.4 else full
        yield mutate(full)
        yield 'FR' + rng.choice(ALPHABET + 'IO') + rng.choice(ALPHABET + 'IO') + s
        yield 'FR' + key + '000' + digits(6)
        yield 'FR' + digits(2) + '000' + digits(6)
        yield 'FR' + digits(rng.randrange(0, 14))
    # Each new-style key for one SIREN: exactly one or two pass.
    for a in ALPHABET:
        for b in 'ABCKZ7':
            yield 'FR' + a + b + '399859412'
    yield from ['', 'FR', 'fr', 'FR 27 552 032 534', 'FRK7399859412', 'IO334175221', 'FR00552032534', 'FRFR27552032534']


def verdict(mod, value):
    try:
        return 'VALID', mod.validate(value)
    except ValidationError as e:
        return type(e).__name__, ''


def main():
    w = sys.stdout.write
    w('# python-stdnum %s verdicts on generated French identifiers (gen_france_stdnum.py)\n' % stdnum.__version__)
    w('scheme\tinput\tverdict\tcompact\n')
    seen = set()
    for name, mod, gen in (('fr.siren', siren, sirens), ('fr.siret', siret, sirets), ('fr.tva', tva, tvas)):
        for value in gen():
            if (name, value) in seen or '\t' in value or '\n' in value:
                continue
            seen.add((name, value))
            v, compact = verdict(mod, value)
            w('%s\t%s\t%s\t%s\n' % (name, value, v, compact))


if __name__ == '__main__':
    main()
