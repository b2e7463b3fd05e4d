package deadlines

import (
	"strings"

	registry "github.com/companyregistry/registry"
)

// The engine's tests run on made-up duty profiles of a few shapes. They are
// not facts about Norwegian legal forms: those live in the country module's
// legal-form table (countries/no), whose own tests check each form's duties
// end to end.

// profileAll is a form with all four form-dependent duties mandatory, like a
// limited company.
func profileAll(code string) NorwegianDuties {
	return NorwegianDuties{
		Code: code, Label: "test company (" + code + ")",
		TaxReturn:                    KindDuty{Duty: DutyYes, Because: "A test company files a tax return."},
		ShareholderRegisterStatement: KindDuty{Duty: DutyYes, Because: "A test company files a shareholder register statement."},
		GeneralMeeting:               KindDuty{Duty: DutyYes, Because: "A test company holds a general meeting.", SourceURL: "https://example.test/meeting"},
		AnnualAccounts:               KindDuty{Duty: DutyYes, Because: "A test company sends annual accounts."},
	}
}

// profileOwner is a form whose tax return is mandatory and whose accounts
// depend on facts the register does not show, like a sole proprietorship.
func profileOwner(code string) NorwegianDuties {
	return NorwegianDuties{
		Code: code, Label: "test proprietorship (" + code + ")",
		TaxReturn:                    KindDuty{Duty: DutyYes, Because: "The owner files a tax return."},
		ShareholderRegisterStatement: KindDuty{Duty: DutyNo},
		GeneralMeeting:               KindDuty{Duty: DutyNo},
		AnnualAccounts:               KindDuty{Duty: DutyConditional, Because: "Accounts only above a threshold."},
	}
}

// profileUnmodelled is a recognised form none of whose duties is modelled,
// like a municipality.
func profileUnmodelled(code string) NorwegianDuties {
	return NorwegianDuties{Code: code, Label: "test public body (" + code + ")"}
}

// profileFor picks a test profile by the report's legal form code: the
// engine knows nothing of codes, so this only decides which shape a test
// gets. Codes the tests use as "unknown" get the zero profile.
func profileFor(rep *registry.CompanyReport) NorwegianDuties {
	if rep == nil || rep.LegalFormCode == nil {
		return NorwegianDuties{}
	}
	switch code := strings.ToUpper(strings.TrimSpace(*rep.LegalFormCode)); code {
	case "AS", "ASA", "SE":
		return profileAll(code)
	case "ENK", "ANS", "DA", "KS":
		return profileOwner(code)
	case "", "XYZ", "LTD", "PLC", "LLP", "PRIVATE-UNLIMITED", "LIMITED-PARTNERSHIP":
		return NorwegianDuties{}
	default:
		return profileUnmodelled(code)
	}
}

// norway runs the engine with the test profile of rep's form.
func norway(rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	return Norway(rep, profileFor(rep), today)
}
