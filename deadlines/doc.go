// Package deadlines computes statutory filing deadlines for Norway, the
// United Kingdom, Finland, Denmark, France and Sweden from a
// [registry.CompanyReport] and a given day. It is the engine behind the
// deadlines operation of the country modules: [Norway], [UnitedKingdom],
// [Finland], [Denmark], [France] and [Sweden] return a
// [registry.DeadlineReport], and [NorwayRules], [UnitedKingdomRules],
// [FinlandRules], [DenmarkRules], [FranceRules] and [SwedenRules] describe
// the rules for the modules' rules documents. The modules own their
// legal-form tables and pass the duties of a report's form
// ([NorwegianDuties], [UKDuties], [FinlandDuties], [DenmarkDuties],
// [FranceDuties], [SwedishDuties]); a Norwegian or Finnish form's duty of a
// kind is a [KindDuty].
//
// The package is pure: no I/O, no clock and no package-level mutable state;
// the same report and day always give the same output. Dates are civil
// dates ([registry.Date]) handled as day numbers, so no time zone is
// involved.
//
// # Past days
//
// Every engine applies the rules it cites, as they stand today, to any
// day it is given: a day years back gives the dates today's rules would
// give, not those the law of that time gave. The calendars' one change
// applied by year is Denmark's Store Bededag (a holiday until 2023); for
// example, Sweden's calendar keeps nationaldagen and not annandag pingst in
// every year, although annandag pingst was an allmän helgdag until lag
// 2004:1320 replaced it.
//
// # Norwegian public holidays
//
// The Norwegian business calendar (Saturdays, Sundays and the public
// holidays of helligdagsfredloven § 2 and lov 26. april 1947 nr. 1; 24 and
// 31 December are working days), exported as [NorwegianHolidays] and
// [NorwegianWorkingDay], is computed here, with Easter by the anonymous
// Gregorian algorithm, and tested against the published holidays of
// 2024–2031 and an independent Easter implementation for 1700–2299.
//
// # Finnish public holidays
//
// The Finnish business calendar of Laki säädettyjen määräaikain
// laskemisesta (150/1930) § 5 (Saturdays, Sundays and fifteen holidays,
// among them Midsummer Eve and the Saturdays of Midsummer and All Saints'
// Day; New Year's Eve is not one), exported as [FinnishHolidays] and
// [FinnishBusinessDay], uses the same Easter computation and is tested day
// by day against an independent list for 2025–2031.
//
// # France
//
// [France] computes the French duties (the approval and the filing of the
// accounts, the corporate income tax return, balance and instalments, the
// monthly VAT return on the day of CGI annexe IV art. 39's schedule, the
// CFE and the DSN) from the duties of a legal form that the French module
// passes as [FranceDuties], and [FranceRules] describes them. The French
// business calendar (Saturdays, Sundays and the eleven fêtes légales of
// Code du travail art. L3133-1), exported as [FrenchHolidays] and
// [FrenchBusinessDay], moves tax and social deadlines (CIBS art. D171-5)
// but not the company-law ones; it is tested day by day against an
// independent list for 2025–2031.
//
// # Danish holidays and bank closing days
//
// Denmark ([Denmark], [DenmarkRules], with the duties of a form and the
// company's own financial year in [DenmarkDuties]) has two calendars: the
// public holidays (helligdage: Sundays and ten days, [DanishHolidays]; Store
// Bededag was one until 2023), past which a tax deadline moves to the next
// weekday ([DanishBusinessDay]), and the bank closing days (the Friday after
// Ascension Day, Grundlovsdag, Christmas Eve and New Year's Eve,
// [DanishBankClosingDays]), which also stop the rules counted in bank days
// ([DanishBankDay]). Both are tested day by day against the table of
// testdata/denmark_non_business_days_2025-2031.tsv.
//
// # Swedish non-business days
//
// The Swedish business calendar of lag (1930:173) om beräkning av
// lagstadgad tid, 2 § (Saturdays, Sundays, the thirteen allmänna
// helgdagar of lag 1989:253, and midsommarafton, julafton and
// nyårsafton), exported as [SwedishHolidays] and [SwedishBusinessDay], moves
// every Swedish deadline of [Sweden]; the Swedish module passes the duties
// of its legal-form table as [SwedishDuties], and [SwedenRules] describes
// the rules. It is tested day by day against the list of
// testdata/se_non_business_days_2025_2031.tsv, and the engine against the
// worked table of testdata/sweden_worked_2026-2027.md.
package deadlines
