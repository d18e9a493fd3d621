//! The published Jamb strategies (Rnd, P1, P2, PB, MS) as simulated players.
