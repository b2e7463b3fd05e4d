package idcheck

// luhnValid reports whether the ASCII digits d pass the Luhn (mod 10)
// check: from the right, every second digit is doubled (less 9 when that
// gives more than 9), and the sum is a multiple of 10. The Swedish
// organisation number and the French SIREN and SIRET use it.
func luhnValid(d []byte) bool {
	sum := 0
	for i := range d {
		v := int(d[len(d)-1-i] - '0')
		if i%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}
