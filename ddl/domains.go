package ddl

// The value domains of the reference workload (scenarios.md, "Data
// domains"). They are defined once here: the generator draws from them and
// the corpus exposes them as named lists (list(continent), list(color), ...),
// so a scenario's parameter and the loaded rows always agree.
var (
	Continents = []string{"Africa", "Antarctica", "Asia", "Europe", "North America", "Oceania", "South America"}

	Colors = []string{
		"red", "blue", "yellow", "green", "orange", "purple", "black", "white", "brown", "gray",
		"pink", "teal", "magenta", "cyan", "maroon", "indigo", "lavender", "turquoise", "gold", "silver",
	}

	// Statuses are the members of main.enum_field and level.record_status.
	Statuses = []string{"active", "inactive", "pending"}

	// Permissions are the members of main.set_field; rows hold one each.
	Permissions = []string{"read", "write", "execute", "delete"}

	// RecordCodes are the 50 five-letter codes of level.record_code.
	RecordCodes = []string{
		"ALPHA", "BRAVO", "CEDAR", "DELTA", "EMBER", "FJORD", "GAMMA", "HAVEN", "IVORY", "JOULE",
		"KARMA", "LUNAR", "MAPLE", "NOBLE", "OCEAN", "PRISM", "QUAKE", "RAVEN", "SOLAR", "TIGER",
		"ULTRA", "VIVID", "WALTZ", "XENON", "YIELD", "ZEBRA", "AMBER", "BLAZE", "CORAL", "DUNES",
		"EAGLE", "FLORA", "GLYPH", "HELIX", "INDEX", "JEWEL", "KIOSK", "LOTUS", "MOCHA", "NEXUS",
		"ORBIT", "PIXEL", "QUILT", "RIDGE", "STORM", "TRAIL", "UNITY", "VAPOR", "WHEAT", "YACHT",
	}
)

// Year range of main.year_field.
const (
	MinYear = 1999
	MaxYear = 2035
)

// Domain returns a named value list ("continent", "color", "status",
// "permission", "record_code") and whether it exists.
func Domain(name string) ([]string, bool) {
	switch name {
	case "continent":
		return Continents, true
	case "color":
		return Colors, true
	case "status":
		return Statuses, true
	case "permission":
		return Permissions, true
	case "record_code":
		return RecordCodes, true
	}
	return nil, false
}

// DomainNames lists the names Domain knows, in a stable order.
func DomainNames() []string {
	return []string{"continent", "color", "status", "permission", "record_code"}
}
