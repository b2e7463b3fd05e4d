// Code generated from the description, statement_description and
// super_secure_description tables of Companies House's api-enumerations
// psc_descriptions.yml (testdata/enumerations/psc_descriptions.yml);
// TestPSCDescriptionsMatchEnumerations keeps it in step. DO NOT EDIT.

package gb

// controlDescription returns Companies House's plain-English description of
// a nature of control (natures_of_control) of a person with significant
// control or a registrable beneficial owner.
func controlDescription(code string) (string, bool) {
	switch code {
	case "ownership-of-shares-25-to-50-percent":
		return "The person holds, directly or indirectly, more than 25% but not more than 50% of the shares in the company.", true
	case "ownership-of-shares-50-to-75-percent":
		return "The person holds, directly or indirectly, more than 50% but not more than 75% of the shares in the company.", true
	case "ownership-of-shares-75-to-100-percent":
		return "The person holds, directly or indirectly, more than 75% of the shares in the company.", true
	case "ownership-of-shares-25-to-50-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% but not more than 50% of the shares in the company.", true
	case "ownership-of-shares-50-to-75-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 50% but not more than 75% of the shares in the company.", true
	case "ownership-of-shares-75-to-100-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 75% of the shares in the company.", true
	case "ownership-of-shares-25-to-50-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% but not more than 50% of the shares in the company.", true
	case "ownership-of-shares-50-to-75-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 50% but not more than 75% of the shares in the company.", true
	case "ownership-of-shares-75-to-100-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 75% of the shares in the company.", true
	case "ownership-of-shares-more-than-25-percent-registered-overseas-entity":
		return "The beneficial owner holds, directly or indirectly, more than 25% of the shares in the entity.", true
	case "ownership-of-shares-more-than-25-percent-as-trust-registered-overseas-entity":
		return "Beneficial owner is a trustee of a trust and: the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% of the shares in the entity.", true
	case "ownership-of-shares-more-than-25-percent-as-firm-registered-overseas-entity":
		return "The beneficial owner is a member of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% of the shares in the entity.", true
	case "ownership-of-shares-more-than-25-percent-as-control-over-trust-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a trust, and: the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% of the shares in the entity.", true
	case "ownership-of-shares-more-than-25-percent-as-control-over-firm-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% of the shares in the entity.", true
	case "voting-rights-25-to-50-percent":
		return "The person holds, directly or indirectly, more than 25% but not more than 50% of the voting rights in the company.", true
	case "voting-rights-50-to-75-percent":
		return "The person holds, directly or indirectly, more than 50% but not more than 75% of the voting rights in the company.", true
	case "voting-rights-75-to-100-percent":
		return "The person holds, directly or indirectly, more than 75% of the voting rights in the company.", true
	case "voting-rights-25-to-50-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% but not more than 50% of the voting rights in the company.", true
	case "voting-rights-50-to-75-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 50% but not more than 75% of the voting rights in the company.", true
	case "voting-rights-75-to-100-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 75% of the voting rights in the company.", true
	case "voting-rights-25-to-50-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% but not more than 50% of the voting rights in the company.", true
	case "voting-rights-50-to-75-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 50% but not more than 75% of the voting rights in the company.", true
	case "voting-rights-75-to-100-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 75% of the voting rights in the company.", true
	case "voting-rights-more-than-25-percent-registered-overseas-entity":
		return "The beneficial owner holds, directly or indirectly, more than 25% of the voting rights in the entity.", true
	case "voting-rights-more-than-25-percent-as-trust-registered-overseas-entity":
		return "Beneficial owner is a trustee of a trust and: the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% of the voting rights in the entity.", true
	case "voting-rights-more-than-25-percent-as-firm-registered-overseas-entity":
		return "The beneficial owner is a member of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% of the voting rights in the entity.", true
	case "voting-rights-more-than-25-percent-as-control-over-trust-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a trust, and: the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% of the voting rights in the entity.", true
	case "voting-rights-more-than-25-percent-as-control-over-firm-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% of the voting rights in the entity.", true
	case "right-to-appoint-and-remove-directors":
		return "The person holds the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "right-to-appoint-and-remove-directors-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "right-to-appoint-and-remove-directors-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "right-to-appoint-and-remove-directors-as-control-over-trust-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a trust, and: the trustees of that trust (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "right-to-appoint-and-remove-directors-as-control-over-firm-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "significant-influence-or-control":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the company.", true
	case "significant-influence-or-control-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such)  have the right to exercise, or actually exercise, significant influence or control over the company.", true
	case "significant-influence-or-control-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) have the right to exercise, or actually exercise, significant influence or control over the company.", true
	case "right-to-share-surplus-assets-25-to-50-percent-limited-liability-partnership":
		return "The person holds or is treated as holding, directly or indirectly, the right to share in more than 25% but not more than 50% of any surplus assets of the LLP on a winding up.", true
	case "right-to-share-surplus-assets-50-to-75-percent-limited-liability-partnership":
		return "The person holds or is treated as holding, directly or indirectly, the right to share in more than 50% but not more than 75% of any surplus assets of the LLP on a winding up.", true
	case "right-to-share-surplus-assets-75-to-100-percent-limited-liability-partnership":
		return "The person holds or is treated as holding, directly or indirectly, the right to share in more than 75% of any surplus assets of the LLP on a winding up.", true
	case "right-to-share-surplus-assets-25-to-50-percent-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust; and the trustee of that trust (in their capacity as such) hold or are treated as holding, directly or indirectly, the right to share in more than 25% but not more than 50% of any surplus assets on a winding up of the LLP.", true
	case "right-to-share-surplus-assets-50-to-75-percent-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust; and the trustee of that trust (in their capacity as such) hold or are treated as holding, directly or indirectly, the right to share in more than 50% but not more than 75% of any surplus assets on a winding up of the LLP.", true
	case "right-to-share-surplus-assets-75-to-100-percent-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust; and the trustee of that trust (in their capacity as such) hold or are treated as holding, directly or indirectly, the right to share in more than 75% of any surplus assets on a winding up of the LLP.", true
	case "right-to-share-surplus-assets-25-to-50-percent-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold or as treated as holding, directly or indirectly, the right to share in more than 25% but not more than 50% of any surplus assets of the LLP on a winding up.", true
	case "right-to-share-surplus-assets-50-to-75-percent-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold or as treated as holding, directly or indirectly, the right to share in more than 50% but not more than 75% of any surplus assets of the LLP on a winding up.", true
	case "right-to-share-surplus-assets-75-to-100-percent-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold or as treated as holding, directly or indirectly, the right to share 75% or more of any surplus assets of the LLP on a winding up.", true
	case "voting-rights-25-to-50-percent-limited-liability-partnership":
		return "The person holds, directly or indirectly, more than 25% but not more than 50% of the voting rights in the LLP.", true
	case "voting-rights-50-to-75-percent-limited-liability-partnership":
		return "The person holds, directly or indirectly, more than 50% but not more than 75% of the voting rights in the LLP.", true
	case "voting-rights-75-to-100-percent-limited-liability-partnership":
		return "The person holds, directly or indirectly, more than 75% of the voting rights in the LLP.", true
	case "voting-rights-25-to-50-percent-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 25% but not more than 50% of the voting rights in the LLP.", true
	case "voting-rights-50-to-75-percent-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 50% but not more than 75% of the voting rights in the LLP.", true
	case "voting-rights-75-to-100-percent-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold, directly or indirectly, more than 75% of the voting rights in the LLP.", true
	case "voting-rights-25-to-50-percent-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 25% but not more than 50% of the voting rights in the LLP.", true
	case "voting-rights-50-to-75-percent-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 50% but not more than 75% of the voting rights in the LLP.", true
	case "voting-rights-75-to-100-percent-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) hold, directly or indirectly, more than 75% of the voting rights in the LLP.", true
	case "right-to-appoint-and-remove-members-limited-liability-partnership":
		return "The person holds the right, directly or indirectly, to appoint or remove a majority of the members who are entitled to take part in the management of an LLP.", true
	case "right-to-appoint-and-remove-members-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the members who are entitled to take part in the management of the LLP.", true
	case "right-to-appoint-and-remove-members-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the members who are entitled to take part in the management of the LLP.", true
	case "significant-influence-or-control-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the LLP.", true
	case "significant-influence-or-control-as-trust-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such)  have the right to exercise, or actually exercise, significant influence or control over the LLP.", true
	case "significant-influence-or-control-as-firm-limited-liability-partnership":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed is not a legal person; and the members of that firm (in their capacity as such) have the right to exercise, or actually exercise, significant influence or control over the LLP.", true
	case "significant-influence-or-control-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant influence or control over the entity.", true
	case "significant-influence-or-control-as-trust-registered-overseas-entity":
		return "Beneficial owner is a trustee of a trust and: the trustees of that trust (in their capacity as such) have the right to exercise, or actually exercise, significant influence or control over the company.", true
	case "significant-influence-or-control-as-firm-registered-overseas-entity":
		return "The beneficial owner is a member of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) have the right to exercise, or actually exercise, significant influence or control over the company.", true
	case "significant-influence-or-control-as-control-over-trust-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a trust, and: the trustees of that trust (in their capacity as such) have the right to exercise, or actually exercise, significant influence or control over the company.", true
	case "significant-influence-or-control-as-control-over-firm-registered-overseas-entity":
		return "The beneficial owner has the right to exercise, or actually exercises, significant control or influence over the activities of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) have the right to exercise, or actually exercise, significant influence or control over the company.", true
	case "part-right-to-share-surplus-assets-25-to-50-percent":
		return "The person holds or is treated as holding, directly or indirectly, the right to share in more than 25% but not more than 50% of any surplus assets of the partnership on a winding up.", true
	case "part-right-to-share-surplus-assets-50-to-75-percent":
		return "The person holds or is treated as holding, directly or indirectly, the right to share in more than 50% but not more than 75% of any surplus assets of the partnership on a winding up.", true
	case "part-right-to-share-surplus-assets-75-to-100-percent":
		return "The person holds or is treated as holding, directly or indirectly, the right to share in more than 75% of any surplus assets of the partnership on a winding up.", true
	case "part-right-to-share-surplus-assets-25-to-50-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust; and the trustee of that trust (in their capacity as such) hold or are treated as holding, directly or indirectly, the right to share in more than 25% but not more than 50% of any surplus assets on a winding up of the partnership.", true
	case "part-right-to-share-surplus-assets-50-to-75-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust; and the trustee of that trust (in their capacity as such) hold or are treated as holding, directly or indirectly, the right to share in more than 50% but not more than 75% of any surplus assets on a winding up of the partnership.", true
	case "part-right-to-share-surplus-assets-75-to-100-percent-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust; and the trustee of that trust (in their capacity as such) hold or are treated as holding, directly or indirectly, the right to share in more than 75% of any surplus assets on a winding up of the partnership.", true
	case "part-right-to-share-surplus-assets-25-to-50-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold or as treated as holding, directly or indirectly, the right to share in more than 25% but not more than 50% of any surplus assets of the partnership on a winding up.", true
	case "part-right-to-share-surplus-assets-50-to-75-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold or as treated as holding, directly or indirectly, the right to share in more than 50% but not more than 75% of any surplus assets of the partnership on a winding up.", true
	case "part-right-to-share-surplus-assets-75-to-100-percent-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold or as treated as holding, directly or indirectly, the right to share 75% or more of any surplus assets of the partnership on a winding up.", true
	case "right-to-appoint-and-remove-person":
		return "The person holds the right, directly or indirectly, to appoint or remove a majority of the persons who are entitled to take part in the management of the partnership.", true
	case "right-to-appoint-and-remove-person-as-firm":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a firm that, under the law by which it is governed, is not a legal person; and the members of that firm (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the persons who are entitled to take part in the management of the partnership.", true
	case "right-to-appoint-and-remove-person-as-trust":
		return "The person has the right to exercise, or actually exercises, significant influence or control over the activities of a trust, and the trustees of that trust (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the persons who are entitled to take part in the management of the partnership.", true
	case "right-to-appoint-and-remove-directors-registered-overseas-entity":
		return "The beneficial owner holds the right, directly or indirectly, to appoint or remove a majority of the board of directors of the entity.", true
	case "right-to-appoint-and-remove-directors-as-trust-registered-overseas-entity":
		return "Beneficial owner is a trustee of a trust and: the trustees of that trust (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "right-to-appoint-and-remove-directors-as-firm-registered-overseas-entity":
		return "The beneficial owner is a member of a firm that is not a legal person under its governing law, and: the members of that firm (in their capacity as such) hold the right, directly or indirectly, to appoint or remove a majority of the board of directors of the company.", true
	case "registered-owner-as-nominee-person-england-wales-registered-overseas-entity":
		return "The overseas entity is the registered owner of property or land in the following UK jurisdictions, as a nominee for this person: England and Wales.", true
	case "registered-owner-as-nominee-person-scotland-registered-overseas-entity":
		return "The overseas entity is the registered owner of property or land in the following UK jurisdictions, as a nominee for this person: Scotland.", true
	case "registered-owner-as-nominee-person-northern-ireland-registered-overseas-entity":
		return "The overseas entity is the registered owner of property or land in the following UK jurisdictions, as a nominee for this person: Northern Ireland.", true
	case "registered-owner-as-nominee-another-entity-england-wales-registered-overseas-entity":
		return "The overseas entity is the registered owner of property or land in the following UK jurisdictions, as a nominee for another entity of which this person is a registered beneficial owner: England and Wales.", true
	case "registered-owner-as-nominee-another-entity-scotland-registered-overseas-entity":
		return "The overseas entity is the registered owner of property or land in the following UK jurisdictions, as a nominee for another entity of which this person is a registered beneficial owner: Scotland.", true
	case "registered-owner-as-nominee-another-entity-northern-ireland-registered-overseas-entity":
		return "The overseas entity is the registered owner of property or land in the following UK jurisdictions, as a nominee for another entity of which this person is a registered beneficial owner: Northern Ireland.", true
	}
	return "", false
}

// statementDescription returns Companies House's text of a PSC statement
// code; the text may hold the placeholder {linked_psc_name}.
func statementDescription(code string) (string, bool) {
	switch code {
	case "no-individual-or-entity-with-signficant-control":
		return "The company knows or has reasonable cause to believe that there is no registrable person or registrable relevant legal entity in relation to the company", true
	case "psc-exists-but-not-identified":
		return "The company knows or has reasonable cause to believe that there is a registrable person in relation to the company but it has not identified the registrable person", true
	case "psc-details-not-confirmed":
		return "The company has identified a registrable person in relation to the company but all the required particulars of that person have not been confirmed", true
	case "steps-to-find-psc-not-yet-completed":
		return "The company has not yet completed taking reasonable steps to find out if there is anyone who is a registrable person or a registrable relevant legal entity in relation to the company", true
	case "psc-contacted-but-no-response":
		return "The company has given a notice under section 790D or DA of the Act which has not been complied with", true
	case "psc-has-failed-to-confirm-changed-details":
		return "{linked_psc_name} has failed to comply with a notice given by the company under section 790E or EA of the Act", true
	case "restrictions-notice-issued-to-psc":
		return "The company has issued a restrictions notice under paragraph 1 of Schedule 1B to the Act", true
	case "no-individual-or-entity-with-signficant-control-partnership":
		return "The partnership knows or has reasonable cause to believe that there is no registrable person or registrable relevant legal entity in relation to the partnership", true
	case "psc-exists-but-not-identified-partnership":
		return "The partnership knows or has reasonable cause to believe that there is a registrable person in relation to the partnership but it has not identified the registrable person", true
	case "psc-details-not-confirmed-partnership":
		return "The partnership has identified a registrable person in relation to the partnership but all the required particulars of that person have not been confirmed", true
	case "steps-to-find-psc-not-yet-completed-partnership":
		return "The partnership has not yet completed taking reasonable steps to find out if there is anyone who is a registrable person or a registrable relevant legal entity in relation to the partnership", true
	case "psc-contacted-but-no-response-partnership":
		return "The partnership has given a notice under Regulation 10 of The Scottish Partnerships (Register of People with Significant Control) Regulations 2017 which has not been complied with", true
	case "psc-has-failed-to-confirm-changed-details-partnership":
		return "The partnership has given a notice under Regulation 11 of The Scottish Partnerships (Register of People with Significant Control) Regulations 2017 which has not been complied with", true
	case "restrictions-notice-issued-to-psc-partnership":
		return "The partnership has issued a restrictions notice under paragraph 1 of Schedule 2 to The Scottish Partnerships (Register of People with Significant Control) Regulations 2017", true
	case "all-beneficial-owners-identified":
		return "All beneficial owners have been identified and all required information can be provided", true
	case "no-beneficial-owner-identified":
		return "No beneficial owners have been identified", true
	case "at-least-one-beneficial-owner-unidentified":
		return "Some beneficial owners have been identified and all required information can be provided", true
	case "information-not-provided-for-at-least-one-beneficial-owner":
		return "All beneficial owners have been identified but only some required information can be provided", true
	case "at-least-one-beneficial-owner-unidentified-and-information-not-provided-for-at-least-one-beneficial-owner":
		return "Some beneficial owners have been identified and only some required information can be provided", true
	case "nobody-has-become-or-ceased-to-be-a-beneficial-owner":
		return "Nobody has become or ceased to be a beneficial owner during the update period", true
	case "somebody-has-become-or-ceased-to-be-a-beneficial-owner":
		return "Somebody has become or ceased to be a beneficial owner during the update period", true
	case "no-change-beneficial-owner-relevant-period":
		return "The entity believes nobody has become or ceased to be a beneficial owner during the relevant period", true
	case "change-beneficial-owner-relevant-period":
		return "The entity believes somebody has become or ceased to be a beneficial owner during the relevant period", true
	case "no-trust-involved-relevant-period":
		return "The entity believes nobody has become or ceased to be a beneficial owner due to being a trustee during the relevant period", true
	case "trust-involved-relevant-period":
		return "The entity believes somebody has become or ceased to be a beneficial owner due to being a trustee during the relevant period", true
	case "no-change-beneficiary-relevant-period":
		return "The entity believes nobody has become or ceased to be a beneficiary during the relevant period", true
	case "change-beneficiary-relevant-period":
		return "The entity believes somebody has become or ceased to be a beneficiary during the relevant period", true
	case "awaiting-confirmation-from-psc":
		return "The company knows or believes it has a PSC but has not yet had confirmation", true
	}
	return "", false
}

// superSecureDescription returns Companies House's text for a person with
// significant control whose details are withheld.
func superSecureDescription(code string) (string, bool) {
	switch code {
	case "super-secure-persons-with-significant-control":
		return "The person with significant control's details are not shown because restrictions on disclosing any of the individual's details are in force", true
	case "super-secure-beneficial-owner":
		return "The beneficial owners details are not shown because restrictions on using or disclosing any of the individual’s particulars are in force", true
	}
	return "", false
}
