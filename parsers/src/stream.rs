//! Reading games from a stream (standard input, a pipe, a compressed file). Work in progress.
