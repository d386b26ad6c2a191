package ddl

import "strings"

// CommonDefaultCollation returns a character set's default collation
// where MySQL 8 and MariaDB agree (SHOW CHARACTER SET), "" where they do
// not (utf8mb4: utf8mb4_0900_ai_ci on MySQL 8, utf8mb4_general_ci on
// MariaDB) or for a charset not listed. The analyzer completes it for
// the targeted flavour; SchemaFromCatalog uses it to leave out a
// collation a CREATE TABLE would not have written.
func CommonDefaultCollation(charset string) string {
	cs := strings.ToLower(charset)
	if cs == "utf8" {
		cs = "utf8mb3"
	}
	return commonDefaultCollations[cs]
}

var commonDefaultCollations = map[string]string{
	"utf8mb3": "utf8mb3_general_ci", "latin1": "latin1_swedish_ci",
	"ascii": "ascii_general_ci", "latin2": "latin2_general_ci", "ucs2": "ucs2_general_ci",
	"utf16": "utf16_general_ci", "utf16le": "utf16le_general_ci", "utf32": "utf32_general_ci",
	"cp1250": "cp1250_general_ci", "cp1251": "cp1251_general_ci",
	"gbk": "gbk_chinese_ci", "gb2312": "gb2312_chinese_ci", "gb18030": "gb18030_chinese_ci",
	"big5": "big5_chinese_ci", "sjis": "sjis_japanese_ci", "ujis": "ujis_japanese_ci",
	"euckr": "euckr_korean_ci", "greek": "greek_general_ci", "hebrew": "hebrew_general_ci",
	"koi8r": "koi8r_general_ci", "koi8u": "koi8u_general_ci", "binary": "binary",
}
