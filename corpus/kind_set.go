package corpus

// KindSet is set(TABLE.COLUMN): one member of a SET column, read from the
// schema (TABLE may be a family), bound as a string.
const KindSet = "set"

var _ = registerKind(membersKind(KindSet))
