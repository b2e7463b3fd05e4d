package fr

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
)

var _ registry.RolesCountry = (*Country)(nil)

// Roles fetches the officers (dirigeants) of the unit described by report
// from the same GET /search?q={siren} as Lookup: the officers in force as
// INPI's national companies register (RNE) holds them, natural persons
// with their year and month of birth (never a day), legal persons with
// their SIREN. An officer whose identity the register withholds is left
// out, and a note says so. The errors are those of Lookup.
func (c *Country) Roles(ctx context.Context, report *registry.CompanyReport) (*registry.RolesReport, error) {
	siren, p := idcheck.ParseSIREN(report.ID)
	if p != idcheck.ProblemNone {
		return nil, c.up.Fail(registry.CodeInvalidID, idcheck.FranceReason(idcheck.FrenchSIREN, p), idcheck.FranceHint(idcheck.FrenchSIREN, p))
	}
	u, err := c.fetchUnit(ctx, idcheck.FrenchID{Kind: idcheck.FrenchSIREN, SIREN: siren})
	if err != nil {
		return nil, err
	}
	out := &registry.RolesReport{
		Country:   countryCode,
		Registry:  registrySlug,
		ID:        siren.String(),
		Name:      report.Name,
		Roles:     []registry.Role{},
		Source:    countrykit.Ptr(sourceText(u, false)),
		SourceURL: countrykit.Ptr(publicURL(siren.String())),
		License:   countrykit.Ptr(licenseText),
		Notes:     []string{},
	}
	roles, withheld := mapOfficers(u)
	out.Roles = roles
	if withheld > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("The register withholds the identity of %d officer(s) who opted out of publication; "+
			"they are not listed.", withheld))
	}
	if len(roles) == 0 && withheld == 0 {
		out.Notes = append(out.Notes, "The register lists no officers for this unit.")
	}
	if isIndividual(u) {
		out.Notes = append(out.Notes, "This is an individual entrepreneur (entrepreneur individuel): the person is the business. "+
			"The roles are personal data: handle them with care and do not store or share them beyond the purpose at hand.")
	}
	out.Notes = append(out.Notes, "Officers come from INPI's national companies register (RNE) and are those in force: the API gives "+
		"neither appointment dates nor former officers. A natural person's birth date is published as a year and month only. "+
		"Who may sign for the company follows from the role and the statutes, which the register does not publish.")
	return out, nil
}

// mapOfficers maps the unit's officers in the register's order, except
// that the chair of the board (président du conseil d'administration or de
// surveillance) comes first, as [registry.RolesReport] promises; withheld
// counts the natural persons whose identity is not published.
func mapOfficers(u *unit) (roles []registry.Role, withheld int) {
	individual := isIndividual(u)
	for _, o := range u.Dirigeants {
		q := o.Qualite.V
		group, english := roleOf(q, individual)
		r := registry.Role{Group: group, RoleCode: q, Role: english, RoleLocal: countrykit.StringOrNil(q), Current: true}
		if r.RoleCode == "" {
			r.RoleCode = "unknown"
			if individual {
				r.RoleCode = "entrepreneur"
			}
		}
		if strings.EqualFold(o.TypeDirigeant.V, "personne morale") {
			name := o.Denomination.V
			if name == "" {
				withheld++
				continue
			}
			r.Holder = registry.RoleHolder{Kind: registry.HolderEntity, Name: name}
			if s, p := idcheck.ParseSIREN(o.SIREN.V); p == idcheck.ProblemNone {
				r.Holder.ID = countrykit.Ptr(s.String())
				r.Holder.Country = countrykit.Ptr(countryCode)
			}
			roles = append(roles, r)
			continue
		}
		name := strings.TrimSpace(o.Prenoms.V + " " + o.Nom.V)
		if o.Nom.V == "" {
			withheld++
			continue
		}
		r.Holder = registry.RoleHolder{Kind: registry.HolderPerson, Name: name, Nationality: countrykit.StringOrNil(o.Nationalite.V)}
		r.Holder.BirthYear, r.Holder.BirthMonth = birthYearMonth(o)
		roles = append(roles, r)
	}
	// The API lists the chair anywhere among the directors (Danone's is
	// the last of ten); the Registry keeps this order within a group, so
	// put the chair first here.
	slices.SortStableFunc(roles, func(a, b registry.Role) int { return chairRank(a) - chairRank(b) })
	return roles, withheld
}

// chairRank is 0 for the chair of a board (of directors or supervisory),
// 1 for any other role.
func chairRank(r registry.Role) int {
	if r.Group == registry.RoleBoard && (r.Role == chairOfBoard || r.Role == chairOfSupervisoryBoard) {
		return 0
	}
	return 1
}

// birthYearMonth reads a person's year and month of birth from
// date_de_naissance ("YYYY-MM"; a longer date is cut to its month), else
// the year from annee_de_naissance. A day is never kept.
func birthYearMonth(o officer) (year, month *int) {
	if d := o.DateDeNaissance.V; len(d) >= 7 && d[4] == '-' {
		y, err1 := strconv.Atoi(d[:4])
		m, err2 := strconv.Atoi(d[5:7])
		if err1 == nil && err2 == nil && y >= 1800 && y <= 9999 && m >= 1 && m <= 12 {
			return countrykit.Ptr(y), countrykit.Ptr(m)
		}
	}
	if y, err := strconv.Atoi(o.AnneeDeNaissance.V); err == nil && y >= 1800 && y <= 9999 {
		return countrykit.Ptr(y), nil
	}
	return nil, nil
}

// The English labels of the chairs, which [chairRank] puts first.
const (
	chairOfBoard            = "Chair of the board of directors"
	chairOfSupervisoryBoard = "Chair of the supervisory board"
)

// qualiteText writes a qualité the way roleOf's labels are written: lower
// case, without accents (a decomposed letter too), one kind of apostrophe
// (’ ‘ ʼ ` ´ as ') and hyphen (the dashes and the minus sign as -), white
// space (no-break spaces included) as one space and none around a hyphen,
// and "vice president" with its hyphen. The RNE writes its labels accented and
// in mixed case; this reads "VICE PRESIDENT", "Gerant" or a typographic
// apostrophe the same.
func qualiteText(qualite string) string {
	q := strings.Map(func(r rune) rune {
		switch {
		case unicode.Is(unicode.Mn, r):
			return -1
		case r == '\u2019' || r == '\u2018' || r == '\u02bc' || r == '`' || r == '\u00b4':
			return '\''
		case r >= '\u2010' && r <= '\u2014' || r == '\u2212':
			return '-'
		}
		return r
	}, norm.NFD.String(strings.ToLower(qualite)))
	// One space between words, none around a hyphen ("vice - president").
	q = strings.Join(strings.Fields(q), " ")
	q = strings.ReplaceAll(strings.ReplaceAll(q, " -", "-"), "- ", "-")
	return strings.ReplaceAll(q, "vice president", "vice-president")
}

// roleOf maps an RNE qualité (a French label; the API gives no code) to a
// role group and an English label. An unknown label is kept in the group
// other.
func roleOf(qualite string, individual bool) (registry.RoleGroup, string) {
	q := qualiteText(qualite)
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(q, x) {
				return true
			}
		}
		return false
	}
	switch {
	case q == "" && individual:
		return registry.RoleOwner, "Individual entrepreneur (the owner)"
	case q == "":
		return registry.RoleOther, "Officer (role not given)"
	case has("commissaire aux comptes suppl"):
		return registry.RoleAuditor, "Alternate statutory auditor"
	case has("commissaire aux comptes"):
		return registry.RoleAuditor, "Statutory auditor"
	case has("liquidat"):
		return registry.RoleOther, "Liquidator"
	case has("provisoire", "judiciaire", "mandataire"):
		return registry.RoleOther, "Court-appointed administrator or agent"
	case has("vice-president"):
		// Before the chairs: "vice-president du conseil de surveillance"
		// contains "president du conseil de surveillance".
		return registry.RoleBoard, "Vice-chair"
	case has("president du conseil d'administration"):
		return registry.RoleBoard, chairOfBoard
	case has("president du conseil de surveillance"):
		return registry.RoleBoard, chairOfSupervisoryBoard
	case has("conseil de surveillance"):
		return registry.RoleBoard, "Member of the supervisory board"
	case has("administrateur"):
		return registry.RoleBoard, "Director (member of the board of directors)"
	case has("president du directoire"):
		return registry.RoleManagement, "Chair of the management board"
	case has("directoire"):
		return registry.RoleManagement, "Member of the management board"
	case has("directeur general delegue"):
		return registry.RoleManagement, "Deputy managing director"
	case has("directeur general"):
		return registry.RoleManagement, "Managing director (directeur général)"
	case has("gerant"):
		return registry.RoleManagement, "Manager (gérant)"
	case has("president"):
		return registry.RoleManagement, "President"
	case has("directeur"):
		return registry.RoleManagement, "Director (directeur)"
	case has("associe", "commandite"):
		return registry.RolePartner, "Partner"
	case has("representant"):
		return registry.RoleOther, "Representative"
	}
	return registry.RoleOther, "Other officer"
}
