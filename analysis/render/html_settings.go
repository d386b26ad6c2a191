package render

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// setting is one line of the run's settings or server variables.
type setting struct {
	Key, Value string
}

// settingsOf lists what run.json says of how the run was made (the tool,
// the client, the dataset and every option, by its run.json key) and the
// server variables it recorded, sorted by key. The options are read
// through their JSON so that a new option shows without a change here.
func settingsOf(info *results.Run) (settings, vars []setting) {
	if info == nil {
		return nil, nil
	}
	add := func(k, v string) {
		if v != "" {
			settings = append(settings, setting{k, v})
		}
	}
	add("tool version", info.ToolVersion)
	add("client host", info.ClientHost)
	if info.Segments > 0 {
		add("segments", fmt.Sprint(info.Segments))
	}
	if len(info.Actions) > 0 {
		add("actions", strings.Join(info.Actions, "; "))
	}
	for _, p := range info.ExecPaths {
		add("exec path "+p.Endpoint, p.Path)
	}
	if info.ClientCPUSeconds > 0 {
		add("client CPU", fmt.Sprintf("%.1f s, %.1f µs per execution", info.ClientCPUSeconds, info.ClientCPUPerQueryUs))
	}
	// the options, then the dataset, each sorted by key
	flatten := func(prefix string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if s := settingValue(m[k]); s != "" {
				settings = append(settings, setting{prefix + k, s})
			}
		}
	}
	if info.Options != nil {
		flatten("", info.Options)
	}
	if info.Dataset != nil {
		flatten("dataset ", info.Dataset)
	}
	for _, k := range slices.Sorted(maps.Keys(info.ServerVars)) {
		vars = append(vars, setting{k, info.ServerVars[k]})
	}
	return settings, vars
}

// settingValue is a JSON value as the page shows it: lists joined, and
// nothing for null, an empty string or an empty list.
func settingValue(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		var parts []string
		for _, e := range v {
			if s := settingValue(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		b, _ := json.Marshal(v)
		if string(b) == "{}" {
			return ""
		}
		return string(b)
	case float64:
		return strings.TrimSuffix(fmt.Sprintf("%.6f", v), ".000000")
	default:
		return fmt.Sprint(v)
	}
}
