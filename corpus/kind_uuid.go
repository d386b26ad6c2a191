package corpus

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// KindUUID is uuid: a random version 4 UUID as text, bound as a string.
const KindUUID = "uuid"

var _ = registerKind(&kind{
	name:    KindUUID,
	draw:    drawUUID,
	args:    func(d decl) error { return d.want(0) },
	compile: func(compiling, *gen) error { return nil },
	fits: func(_ checking, col *ddl.Column) string {
		t := col.Type
		if !t.IsString() {
			return "a UUID string compared with a " + strings.ToUpper(t.Base) + " column"
		}
		if t.Length > 0 && t.Length < 36 {
			return fmt.Sprintf("a UUID is 36 characters, the column holds %d", t.Length)
		}
		return ""
	},
})
