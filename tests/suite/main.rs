//! The integration tests, as one test binary (one build, one link, tables built once for
//! every test): a module per area, and `common` with the shared helpers.

mod browser;
mod common;
mod support;

mod analyze;
mod cli;
mod corpus_cli;
mod corpus_properties;
mod damage;
mod dice;
mod dist_cli;
mod distributions;
mod examples;
mod expected_tables;
mod game_page;
mod gate;
mod golden;
mod inputs;
mod jamb;
mod jamb_oracle;
mod jamb_strategies;
mod layers;
mod linked_pages;
mod merge;
mod outputs;
mod partitions;
mod player;
mod progress;
mod properties;
mod ranges;
mod reliability_inputs;
mod reliability_limits;
mod reliability_merge;
mod reliability_outputs;
mod reliability_parsers;
mod reliability_second_pass;
mod replay;
mod report_html;
mod screening;
mod spark;
mod threads;
mod two_player;
mod validate;
mod widget_exact;
mod yatzy_solver;
