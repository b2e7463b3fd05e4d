package deadlines

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// Duty says whether a deadline kind that depends on the legal form applies
// to a legal form. Norway's and Finland's legal-form tables describe a
// form's duties with it ([NorwegianDuties], [FinlandDuties]); the UK's,
// whose dates the register publishes, use [UKDuties]. The zero value is
// [DutyUnknown].
type Duty uint8

const (
	// DutyUnknown means the form's duty of this kind is not modelled: no
	// deadline of the kind is computed ([Norway] adds a note naming it).
	DutyUnknown Duty = iota
	// DutyNo means the kind does not apply to the form.
	DutyNo
	// DutyYes means the kind applies to every unit of the form: the
	// deadline is listed as mandatory.
	DutyYes
	// DutyConditional means the kind applies only when facts the register
	// does not show hold (turnover, assets, staff, taxable income): the
	// deadline is listed with mandatory false.
	DutyConditional
)

// Applies reports whether a deadline of the kind is listed: for [DutyYes]
// and [DutyConditional].
func (d Duty) Applies() bool { return d == DutyYes || d == DutyConditional }

// String returns "unknown", "no", "yes" or "conditional".
func (d Duty) String() string {
	switch d {
	case DutyNo:
		return "no"
	case DutyYes:
		return "yes"
	case DutyConditional:
		return "conditional"
	}
	return "unknown"
}

// KindDuty is a legal form's duty of one deadline kind and what its
// deadline says about it.
type KindDuty struct {
	// Duty says whether the kind applies.
	Duty Duty
	// Because is the deadline's applies_because: one sentence naming the
	// legal form, its legal basis and any condition.
	Because string
	// Name, LocalName and SourceURL replace the kind's defaults when not
	// empty, for a form whose obligation has its own name or law (a
	// cooperative's annual meeting, a Norwegian partnership's
	// selskapsmelding).
	Name, LocalName, SourceURL string
}

// kindDeadline fills in what a form's KindDuty says of a deadline: its
// mandatory flag, reason and any name, local name or source of its own.
// The kind's own sentence in d.AppliesBecause is kept when k has none;
// without either, a generic sentence names the form's label.
func kindDeadline(d registry.Deadline, k KindDuty, label string) registry.Deadline {
	d.Mandatory = k.Duty == DutyYes
	if k.Because != "" {
		d.AppliesBecause = k.Because
	}
	if d.AppliesBecause == "" {
		d.AppliesBecause = "The legal form (" + label + ") has this duty."
	}
	if k.Name != "" {
		d.Name = k.Name
	}
	if k.LocalName != "" {
		d.LocalName = countrykit.Ptr(k.LocalName)
	}
	if k.SourceURL != "" {
		d.SourceURL = countrykit.Ptr(k.SourceURL)
	}
	return d
}

// FormKind is a deadline kind whose duty a legal form decides, with the
// form's duty of it: a row of a country module's legal-form table in its
// rules document.
type FormKind struct {
	Kind registry.DeadlineKind
	Duty KindDuty
}

// KindList writes the kinds of ks that apply to a form, for a rules
// document: each kind in backticks, one whose duty is [DutyConditional]
// followed by " (" + conditional + ")", joined by ", " in the order of ks.
// It is "" when none applies.
func KindList(conditional string, ks ...FormKind) string {
	var out []string
	for _, k := range ks {
		switch k.Duty.Duty {
		case DutyYes:
			out = append(out, "`"+string(k.Kind)+"`")
		case DutyConditional:
			out = append(out, "`"+string(k.Kind)+"` ("+conditional+")")
		case DutyNo, DutyUnknown:
		}
	}
	return strings.Join(out, ", ")
}
