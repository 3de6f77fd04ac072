/**
 * Where a free code can be mailed, as ISO 3166-1 alpha-2 codes: which places are offered is a decision, made here (XK,
 * Kosovo, is user-assigned but in CLDR).
 */
export const COUNTRY_CODES: readonly string[] = `
AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ
EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW
GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY
KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU
MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT
PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC
TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS XK YE
YT ZA ZM ZW`
	.trim()
	.split(/\s+/)

let sorted: string[] | undefined

/**
 * Their English names (CLDR, from the platform: Node's full ICU), sorted by name as a person reads them. The request
 * stores the name as chosen. Built on the server only and handed to the form, so a browser with other CLDR data
 * cannot render other names than the server did.
 */
export function countryNames(): readonly string[] {
	if (!sorted) {
		const regionNames = new Intl.DisplayNames(['en'], { type: 'region' })
		sorted = COUNTRY_CODES.map((code) => regionNames.of(code)!).sort(new Intl.Collator('en').compare)
	}
	return sorted
}

export const DEFAULT_COUNTRY = 'United States'
