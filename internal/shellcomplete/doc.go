// Package shellcomplete completes command lines of a kong application for
// bash, zsh and fish. The shells' scripts (Script) are small and fixed:
// on Tab they run the program itself with the words typed so far, and
// Complete answers from the kong model (commands, flags, enum values) and
// from the predictors the program gives it (such as scenario names). So
// completion cannot drift from the command line, and values that depend
// on the line (a --corpus folder) are completed too.
//
// It must not know any command of its program: what is special about a
// flag or an argument comes in through Completer.Predict.
package shellcomplete
