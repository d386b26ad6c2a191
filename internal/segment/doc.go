// Package segment splits one prepare or one run into N equal parts, each
// done by its own client (a Kubernetes Indexed Job's pods, or local
// processes): which part a client is (Segment, parsed from --segment or
// from a Job's environment) and how a whole is shared out (Share, Range).
//
// It must not know about servers, tables or results: prepare (ddl/load)
// and run (replay) apply the shares to their own work.
package segment
