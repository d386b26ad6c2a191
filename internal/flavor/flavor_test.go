package flavor

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		version, comment string
		want             Flavor
	}{
		{"10.11.19-MariaDB-0+deb12u1", "Debian 12", Flavor{Name: MariaDB, Version: "10.11.19"}},
		{"8.0.36", "MySQL Community Server - GPL", Flavor{Name: MySQL, Version: "8.0.36"}},
		{"8.0.36-28", "Percona Server (GPL), Release 28, Revision 47601f19", Flavor{Name: Percona, Version: "8.0.36"}},
		{"8.0.35-27.1", "Percona XtraDB Cluster (GPL), Release rel27, Revision 84d9464, WSREP version 26.1.4.3", Flavor{Name: Percona, Version: "8.0.35"}},
		{"8.0.11-TiDB-v7.5.0", "", Flavor{Name: TiDB, Version: "v7.5.0"}},
		{"5.5.5-10.6.16-MariaDB-log", "MariaDB Server", Flavor{Name: MariaDB, Version: "10.6.16"}},
	} {
		if got := Parse(c.version, c.comment); got != c.want {
			t.Errorf("Parse(%q, %q) = %+v, want %+v", c.version, c.comment, got, c.want)
		}
	}
	if !(Flavor{Version: "8.0.16"}).AtLeast(8, 0, 16) || (Flavor{Version: "8.0.15"}).AtLeast(8, 0, 16) ||
		!(Flavor{Version: "9.1.0"}).AtLeast(8, 0, 18) || (Flavor{Version: "5.7.44-log"}).AtLeast(8, 0, 0) {
		t.Error("AtLeast is wrong")
	}
}
