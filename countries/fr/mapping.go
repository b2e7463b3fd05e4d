package fr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	lookupBasis = "Exact SIREN lookup in the API Recherche d'entreprises (Sirene and RNE)."
	// nameNotPublished is the report's name when the register withholds
	// it: the interface requires a name, and the placeholder is never one.
	nameNotPublished = "Name not published (the person opted out of publication)"
	// naf is the scheme of the activity codes.
	nafScheme = "NAF rév. 2 (INSEE, the French version of NACE Rev. 2; the APE code)"
)

// publicURL is the register's public answer for a SIREN: the API itself.
func publicURL(siren string) string { return DefaultBaseURL + "/search?q=" + siren }

// sourceText is the attribution the Licence Ouverte asks for: the source
// and the date of its last update (the INSEE and the RNE dates of the
// record, when given).
func sourceText(u *unit, withVAT bool) string {
	s := "INSEE (Sirene) et INPI (RNE)"
	if withVAT {
		s = "INSEE (Sirene), INPI (RNE) et DGFiP (numéros de TVA)"
	}
	s += ", via API Recherche d'entreprises (DINUM), " + DefaultBaseURL
	var dates []string
	if d := dateOfTimestamp(u.DateMiseAJourINSEE.V); d != "" {
		dates = append(dates, "du "+d+" (INSEE)")
	}
	if d := dateOfTimestamp(u.DateMiseAJourRNE.V); d != "" {
		dates = append(dates, "du "+d+" (RNE)")
	}
	if len(dates) > 0 {
		s += ", mise à jour " + strings.Join(dates, " et ")
	}
	return s
}

// dateOfTimestamp returns the YYYY-MM-DD date of a YYYY-MM-DDThh:mm:ss
// timestamp, or "" when it does not start with a real date.
func dateOfTimestamp(s string) string {
	if len(s) < 10 {
		return ""
	}
	if d := upstream.Date(s[:10]); d != nil {
		return d.String()
	}
	return ""
}

// unitName returns the unit's name: nom_complet, else nom_raison_sociale;
// masked is true when the register withholds it.
func unitName(u *unit) (name string, masked bool) {
	switch {
	case u.NomComplet.V != "":
		return u.NomComplet.V, false
	case u.NomRaisonSociale.V != "":
		return u.NomRaisonSociale.V, false
	}
	return "", u.NomComplet.Masked || u.NomRaisonSociale.Masked
}

// statusOf maps etat_administratif: A active, C ceased (dissolved, on
// date_fermeture), anything else unknown. Insolvency is not in the public
// data.
func statusOf(u *unit) (registry.Status, string) {
	switch strings.ToUpper(u.EtatAdministratif.V) {
	case "A":
		return registry.StatusActive, "Active (état administratif A in Sirene); insolvency proceedings are not in the public data"
	case "C":
		if d := upstream.Date(u.DateFermeture.V); d != nil {
			return registry.StatusDissolved, "Ceased on " + d.String() + " (état administratif C in Sirene, date de fermeture)"
		}
		return registry.StatusDissolved, "Ceased (état administratif C in Sirene)"
	}
	return registry.StatusUnknown, fmt.Sprintf("Unrecognised état administratif %q", u.EtatAdministratif.V)
}

// isIndividual reports whether the unit is an individual entrepreneur: its
// legal category 1000 or the API's flag.
func isIndividual(u *unit) bool {
	return u.NatureJuridique.V == "1000" || (u.Complements != nil && u.Complements.EstEntrepreneurIndividuel.V)
}

// mapUnit maps one legal unit as the API answers it to a report. asked is
// the identifier the caller asked for (a SIREN or a SIRET). It never
// fails: a field it cannot read is null.
func mapUnit(u *unit, asked idcheck.FrenchID) *registry.CompanyReport {
	siren := asked.SIREN
	name, masked := unitName(u)
	if name == "" {
		name = nameNotPublished
	}
	r := countrykit.NewReport(countryCode, registrySlug, siren.String(), name)
	r.IDFormatted = countrykit.Ptr(siren.Formatted())
	r.IDScheme = countrykit.Ptr(idScheme)
	individual := isIndividual(u)

	code := u.NatureJuridique.V
	if f, ok := lookupForm(code); ok {
		r.LegalFormCode = countrykit.Ptr(f.Code)
		r.LegalForm = countrykit.Ptr(f.English)
		r.LegalFormLocal = countrykit.Ptr(f.French)
		r.LimitedLiability, r.HasBoardDuty, r.HasAnnualAccountsDuty = f.LimitedLiability.Ptr(), f.BoardDuty.Ptr(), f.AccountsDuty.Ptr()
		if f.Deadlines == nil && !f.Public {
			r.Notes = append(r.Notes, "The deadlines of the legal category "+f.Code+" ("+f.French+") are not modelled; only those "+
				"that follow from the register (VAT number, employer) are computed.")
		}
	} else if code != "" {
		r.LegalFormCode = countrykit.Ptr(code)
		r.Notes = append(r.Notes, "The legal category "+code+" is not in the INSEE table this service knows, so its duties are unknown.")
	} else {
		r.Notes = append(r.Notes, "The register gives no legal category (nature juridique) for this unit, so its duties are unknown.")
	}

	status, detail := statusOf(u)
	r.Status, r.StatusDetail, r.IsActive = status, countrykit.Ptr(detail), status == registry.StatusActive
	r.FoundedAt = upstream.Date(u.DateCreation.V)
	if status == registry.StatusDissolved {
		r.DeregisteredAt = upstream.Date(u.DateFermeture.V)
	}

	if c := u.ActivitePrincipale.V; c != "" {
		r.IndustryCodes = append(r.IndustryCodes, registry.IndustryCode{
			Code: c, Description: countrykit.StringOrNil(nafLabels[c]), Scheme: countrykit.Ptr(nafScheme), Rank: 1,
		})
	}
	if s := u.Siege; s != nil {
		r.BusinessAddress = mapAddress(s)
	}

	vat := mapVAT(r, u, siren)
	mapFinances(r, u)

	r.ConfidenceBasis = countrykit.Ptr(lookupBasis)
	if asked.Kind == idcheck.FrenchSIRET {
		r.ConfidenceBasis = countrykit.Ptr("Exact SIRET lookup (" + asked.SIRET.Formatted() + ") in the API Recherche d'entreprises " +
			"(Sirene and RNE); the report describes the establishment's legal unit, SIREN " + asked.SIRET.SIREN().Formatted() + ".")
	}
	r.Source = countrykit.Ptr(sourceText(u, vat))
	r.SourceURL = countrykit.Ptr(publicURL(siren.String()))
	r.License = countrykit.Ptr(licenseText)

	if status == registry.StatusActive {
		r.Notes = append(r.Notes, "Insolvency proceedings (sauvegarde, redressement, liquidation judiciaire) are not in the public data: "+
			"the status says only that the unit is active in Sirene. Check the BODACC before relying on it.")
		if slices.ContainsFunc(u.Dirigeants, func(o officer) bool { return strings.Contains(strings.ToLower(o.Qualite.V), "liquidat") }) {
			r.Notes = append(r.Notes, "A liquidator (liquidateur) is registered among the officers: the company may be in liquidation, "+
				"voluntary or judicial. The register's status stays active until the unit is closed.")
		}
	}
	if masked || strings.EqualFold(u.StatutDiffusion.V, "P") {
		r.Notes = append(r.Notes, "The person has opted out of publication (statut de diffusion partielle): the register withholds "+
			"some of the data (such as the name, the address or the officers), which is shown as null here and is not looked up elsewhere.")
	}
	if individual {
		r.Notes = append(r.Notes, "This is an individual entrepreneur (entrepreneur individuel): the business is a person, so the whole "+
			"record is personal data, and the head office is often the home. Handle it with care and do not store or share it beyond "+
			"the purpose at hand.")
	}
	mapHeadcount(r, u)
	if c := u.CategorieEntreprise.V; c != "" {
		words := map[string]string{"PME": "small or medium-sized enterprise", "ETI": "intermediate-sized enterprise", "GE": "large enterprise"}[c]
		if words == "" {
			words = "category " + c
		}
		year := ""
		if y := u.AnneeCategorieEntreprise.V; y != "" {
			year = " (" + y + ")"
		}
		r.Notes = append(r.Notes, "Company size category (INSEE): "+c+", "+words+year+".")
	}
	if c := u.ActivitePrincipaleNAF25.V; c != "" {
		r.Notes = append(r.Notes, "Activity code in NAF 2025 (the classification in force from 1 January 2027): "+c+".")
	}
	if n, o := u.NombreEtablissements, u.NombreEtablissementsOuverts; n.Set && o.Set {
		r.Notes = append(r.Notes, fmt.Sprintf("Establishments (établissements) in Sirene: %d, of which %d open.", n.Value, o.Value))
	}
	if cp := u.Complements; cp != nil {
		if cp.EstESS.V {
			r.Notes = append(r.Notes, "The unit belongs to the social and solidarity economy (ESS).")
		}
		if cp.EstSocieteMission.V {
			r.Notes = append(r.Notes, "The company is a société à mission (a purpose company).")
		}
		if id := cp.IdentifiantAssociation.V; id != "" {
			r.Notes = append(r.Notes, "Association register (RNA) number: "+id+".")
		}
	}
	if asked.Kind == idcheck.FrenchSIRET {
		r.Notes = append(r.Notes, siretNote(u, asked.SIRET))
	}
	r.Notes = append(r.Notes, factsNote(u, individual))
	return r
}

// mapVAT fills the VAT fields from tva, the active VAT numbers the DGFiP
// reports, and says so; it reports whether a number was shown.
func mapVAT(r *registry.CompanyReport, u *unit, siren idcheck.SIREN) bool {
	var valid []string
	for _, t := range u.TVA {
		v, p := idcheck.ParseFrenchVAT(t.V)
		if n, ok := v.SIREN(); p == idcheck.ProblemNone && ok && n == siren && !slices.Contains(valid, v.String()) {
			valid = append(valid, v.String())
		}
	}
	if len(valid) == 0 {
		r.Notes = append(r.Notes, "The register lists no active VAT number for this unit (the DGFiP's list is often empty), so "+
			"vat_registered is unknown. Built from the SIREN, its number would be "+siren.VATNumber()+": valid in form only, which does "+
			"not mean that the company is registered for VAT.")
		return false
	}
	r.VATRegistered = countrykit.Ptr(true)
	r.VATNumber = countrykit.Ptr(valid[0])
	if len(valid) > 1 {
		r.Notes = append(r.Notes, "The register lists other active VAT numbers: "+strings.Join(valid[1:], ", ")+".")
	}
	return true
}

// mapFinances sets the year of the latest published accounts and says what
// they show: the report has no field for turnover or result.
func mapFinances(r *registry.CompanyReport, u *unit) {
	best := -1
	var fy financeYear
	for k, v := range u.Finances {
		y, err := strconv.Atoi(strings.TrimSpace(k))
		if err != nil || y < 1900 || y > 9999 {
			continue
		}
		if y > best {
			best, fy = y, v
		}
	}
	if best < 0 {
		return
	}
	r.LastAnnualAccountsYear = countrykit.Ptr(best)
	var parts []string
	if fy.CA.Set {
		parts = append(parts, "turnover (chiffre d'affaires) EUR "+groupDigits(fy.CA.Value))
	}
	if fy.ResultatNet.Set {
		parts = append(parts, "net result EUR "+groupDigits(fy.ResultatNet.Value))
	}
	if len(parts) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("Latest published accounts (financial year %d): %s.", best, strings.Join(parts, "; ")))
	}
}

// groupDigits writes n with a comma every three digits.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// mapHeadcount says the headcount band: the register publishes a band,
// not a headcount, so employees stays null.
func mapHeadcount(r *registry.CompanyReport, u *unit) {
	band := u.TrancheEffectifSalarie.V
	if band == "" {
		return
	}
	label := trancheLabels[band]
	if label == "" {
		label = "an unknown band"
	}
	year := ""
	if y := u.AnneeTrancheEffectif.V; y != "" {
		year = " (" + y + ")"
	}
	r.Notes = append(r.Notes, "Headcount band (tranche d'effectif salarié) "+band+year+": "+label+". The register publishes a band, "+
		"not a headcount, so employees is null.")
}

// employerOf says whether the register shows an employer: the unit's or
// the head office's caractère employeur, else its headcount band.
func employerOf(u *unit) deadlines.Duty {
	flags := []string{strings.ToUpper(u.CaractereEmployeur.V)}
	if u.Siege != nil {
		flags = append(flags, strings.ToUpper(u.Siege.CaractereEmployeur.V))
	}
	band := strings.ToUpper(u.TrancheEffectifSalarie.V)
	switch {
	case slices.Contains(flags, "O"), band != "" && band != "NN":
		return deadlines.DutyYes
	case slices.Contains(flags, "N"), band == "NN":
		return deadlines.DutyNo
	}
	return deadlines.DutyUnknown
}

// surnameInitial returns the first letter (A to Z, accents removed) of an
// individual entrepreneur's surname, from the register's officer entry of
// the entrepreneur, or 0 when it is not published or not clear.
func surnameInitial(u *unit) byte {
	var initial byte
	for _, o := range u.Dirigeants {
		if !strings.EqualFold(o.TypeDirigeant.V, "personne physique") {
			continue
		}
		if o.Nom.V == "" || initial != 0 {
			return 0 // masked, or more than one person
		}
		initial = latinInitial(o.Nom.V)
	}
	return initial
}

// latinInitial returns the first letter of s as an upper-case A to Z with
// any diacritic removed, or 0. The base letter is the one the letter's
// canonical Unicode decomposition starts with, for the upper-case letters
// of Latin-1 and Latin Extended-A (À to Ž): Ñ is N, Å is A, Č is C. A
// letter without one (Ø, Æ, Œ, Đ, Ł, ß, Ð, Þ) or outside those blocks is
// not guessed: 0.
func latinInitial(s string) byte {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		r = unicode.ToUpper(r)
		if r >= 'A' && r <= 'Z' {
			return byte(r)
		}
		for _, f := range [...]struct {
			base    byte
			letters string
		}{
			{'A', "ÀÁÂÃÄÅĀĂĄ"}, {'C', "ÇĆĈĊČ"}, {'D', "Ď"}, {'E', "ÈÉÊËĒĔĖĘĚ"}, {'G', "ĜĞĠĢ"}, {'H', "Ĥ"},
			{'I', "ÌÍÎÏĨĪĬĮİ"}, {'J', "Ĵ"}, {'K', "Ķ"}, {'L', "ĹĻĽ"}, {'N', "ÑŃŅŇ"}, {'O', "ÒÓÔÕÖŌŎŐ"},
			{'R', "ŔŖŘ"}, {'S', "ŚŜŞŠ"}, {'T', "ŢŤ"}, {'U', "ÙÚÛÜŨŪŬŮŰŲ"}, {'W', "Ŵ"}, {'Y', "ÝŶŸ"}, {'Z', "ŹŻŽ"},
		} {
			if strings.ContainsRune(f.letters, r) {
				return f.base
			}
		}
		return 0
	}
	return 0
}

// The facts note: the register facts the deadlines need and the report has
// no field for, written by the mapping and read back by [dutiesOf]. It is
// a sentence for users too.
const factsPrefix = "Register facts used for the deadlines: "

// factsNote writes the facts note of a unit.
func factsNote(u *unit, individual bool) string {
	var parts []string
	dep := ""
	if u.Siege != nil {
		dep = strings.ToUpper(u.Siege.Departement.V)
	}
	if validDepartement(dep) {
		parts = append(parts, "département "+dep)
	} else {
		parts = append(parts, "département unknown")
	}
	band := strings.ToUpper(u.TrancheEffectifSalarie.V)
	if _, ok := trancheLabels[band]; ok {
		parts = append(parts, "headcount band "+band)
	} else {
		parts = append(parts, "headcount band unknown")
	}
	parts = append(parts, "employer "+employerOf(u).String())
	if individual {
		if c := surnameInitial(u); c != 0 {
			parts = append(parts, "surname initial "+string(rune(c)))
		} else {
			parts = append(parts, "surname initial unknown")
		}
	}
	return factsPrefix + strings.Join(parts, "; ") + "."
}

// validDepartement reports whether dep looks like a département or
// collectivité code: two digits, 2A or 2B, or three digits starting 97 or
// 98.
func validDepartement(dep string) bool {
	switch {
	case dep == "2A" || dep == "2B":
		return true
	case len(dep) == 2:
		return dep[0] >= '0' && dep[0] <= '9' && dep[1] >= '0' && dep[1] <= '9'
	case len(dep) == 3:
		return dep[0] == '9' && (dep[1] == '7' || dep[1] == '8') && dep[2] >= '0' && dep[2] <= '9'
	}
	return false
}

// readFacts reads the facts note of a report into d; anything it does not
// recognise is left unknown.
func readFacts(notes []string, d *deadlines.FranceDuties) {
	for _, n := range notes {
		rest, ok := strings.CutPrefix(n, factsPrefix)
		if !ok {
			continue
		}
		for _, part := range strings.Split(strings.TrimSuffix(rest, "."), "; ") {
			key, val, _ := strings.Cut(part, " ")
			switch {
			case key == "département" && validDepartement(val):
				d.Departement = val
			case key == "headcount" && strings.HasPrefix(val, "band "):
				if b := strings.TrimPrefix(val, "band "); trancheLabels[b] != "" {
					d.HeadcountBand = b
				}
			case key == "employer":
				switch val {
				case deadlines.DutyYes.String():
					d.Employer = deadlines.DutyYes
				case deadlines.DutyNo.String():
					d.Employer = deadlines.DutyNo
				}
			case key == "surname" && strings.HasPrefix(val, "initial "):
				if c := strings.TrimPrefix(val, "initial "); len(c) == 1 && c[0] >= 'A' && c[0] <= 'Z' {
					d.SurnameInitial = c[0]
				}
			}
		}
		return
	}
}

// siretNote says which establishment a SIRET lookup asked for.
func siretNote(u *unit, siret idcheck.SIRET) string {
	var e *establishment
	for i := range u.MatchingEtablissements {
		if u.MatchingEtablissements[i].SIRET.V == siret.String() {
			e = &u.MatchingEtablissements[i]
			break
		}
	}
	if e == nil && u.Siege != nil && u.Siege.SIRET.V == siret.String() {
		e = u.Siege
	}
	head := "Looked up by the SIRET " + siret.Formatted() + ": this report describes its legal unit (SIREN " + siret.SIREN().Formatted() + ")"
	if e == nil {
		return head + "; the register did not return the establishment itself."
	}
	var b strings.Builder
	b.WriteString(head + ". The establishment asked for is ")
	if e.EstSiege.V {
		b.WriteString("the head office (siège)")
	} else {
		b.WriteString("a secondary establishment")
	}
	if e.Adresse.V != "" {
		b.WriteString(" at " + strings.Join(strings.Fields(e.Adresse.V), " "))
	} else if a := mapAddress(e); a != nil {
		var where []string
		where = append(where, a.Lines...)
		if a.PostalCode != nil {
			where = append(where, *a.PostalCode)
		}
		if a.City != nil {
			where = append(where, *a.City)
		}
		if len(where) > 0 {
			b.WriteString(" at " + strings.Join(where, " "))
		}
	}
	switch strings.ToUpper(e.EtatAdministratif.V) {
	case "A":
		b.WriteString(", open (état administratif A)")
	case "F":
		b.WriteString(", closed (état administratif F)")
		if d := upstream.Date(e.DateFermeture.V); d != nil {
			b.WriteString(" since " + d.String())
		}
	}
	b.WriteString(".")
	return b.String()
}

// mapAddress maps an establishment's address; nil when it holds nothing. A
// withheld part is left out.
func mapAddress(e *establishment) *registry.Address {
	clean := func(t text) string { return strings.Join(strings.Fields(t.V), " ") }
	var lines []string
	if c := clean(e.ComplementAdresse); c != "" {
		lines = append(lines, c)
	}
	var street []string
	num := clean(e.NumeroVoie)
	if last := clean(e.DernierNumeroVoie); num != "" && last != "" {
		num += "-" + last
	}
	for _, p := range []string{num, clean(e.IndiceRepetition), clean(e.TypeVoie), clean(e.LibelleVoie)} {
		if p != "" {
			street = append(street, p)
		}
	}
	if len(street) > 0 {
		lines = append(lines, strings.Join(street, " "))
	}
	if d := clean(e.DistributionSpeciale); d != "" {
		lines = append(lines, d)
	}
	out := &registry.Address{Lines: lines, PostalCode: countrykit.StringOrNil(clean(e.CodePostal))}
	city := clean(e.LibelleCommune)
	if cx := clean(e.LibelleCedex); cx != "" {
		city = cx
	}
	out.City = countrykit.StringOrNil(city)
	out.Municipality = countrykit.StringOrNil(clean(e.LibelleCommune))
	out.MunicipalityCode = countrykit.StringOrNil(clean(e.Commune))
	if foreign := clean(e.LibellePaysEtranger); foreign != "" || clean(e.CodePaysEtranger) != "" {
		out.CountryName = countrykit.StringOrNil(foreign)
		if c := clean(e.LibelleCommuneEtranger); c != "" {
			out.City = countrykit.Ptr(c)
		}
	} else if out.City != nil || out.PostalCode != nil || len(lines) > 0 {
		out.CountryCode, out.CountryName = countrykit.Ptr("FR"), countrykit.Ptr("France")
	}
	if len(lines) == 0 && out.PostalCode == nil && out.City == nil && out.CountryName == nil {
		return nil
	}
	return out
}
