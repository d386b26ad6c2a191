package main

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"time"

	"github.com/alecthomas/kong"
)

// durationMapper reads every duration flag (and its environment
// variable): a Go duration such as 500ms, 10s or 1h30m, or a number
// without a unit, taken as seconds as sysbench's --time and the mysql
// client's --connect-timeout take it.
func durationMapper() kong.MapperFunc {
	return func(ctx *kong.DecodeContext, target reflect.Value) error {
		t, err := ctx.Scan.PopValue("duration")
		if err != nil {
			return err
		}
		var d time.Duration
		switch v := t.Value.(type) {
		case string:
			if d, err = parseDuration(v); err != nil {
				return err
			}
		case int, int64, float64: // from a configuration file: seconds too
			d = time.Duration(reflect.ValueOf(v).Convert(reflect.TypeOf(0.0)).Float() * float64(time.Second))
		default:
			return fmt.Errorf("expected a duration but got %q", v)
		}
		target.Set(reflect.ValueOf(d))
		return nil
	}
}

var bareSeconds = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// parseDuration is a duration flag's value: a number alone is seconds.
func parseDuration(s string) (time.Duration, error) {
	if bareSeconds.MatchString(s) {
		secs, err := strconv.ParseFloat(s, 64)
		if err == nil && secs*float64(time.Second) < float64(1<<63-1) {
			return time.Duration(secs * float64(time.Second)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: give a number and a unit (500ms, 10s, 2m, 1h30m) or seconds alone (10)", s)
	}
	return d, nil
}
