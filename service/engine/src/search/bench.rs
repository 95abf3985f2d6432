//! The bench: fixed positions of each variant, each searched to its variant's depth on a fresh
//! table of [`TABLE_MIB`] MiB with one thread. The total node count is then the search's signature,
//! the `Bench: N` of commit messages: it changes only when the search does. `damiera bench` runs
//! it and prints the speed; `examples/bench.rs` runs the same searches alone, so that the search's
//! instructions can be counted (callgrind) without building the server.

use crate::Variant;

/// Each variant's bench: its start and positions from seeded random play, with the search depth.
pub const POSITIONS: [(Variant, u32, &[&str]); 3] = [
    (
        Variant::Italian,
        17,
        &[
            "W:W21-32:B1-12",
            "W:W9,17,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,13,15,16",
            "W:WK2,21,24,25,26,29,30,31,32:B1,3,4,8,9,10,13",
            "W:WK13,18,19,25,26,27,29,30,32:B1,2,5,9,15",
        ],
    ),
    (
        Variant::Triestina,
        14,
        &[
            "W:W31-50:B1-20",
            "W:W28,30,32,33,34,36,37,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,8,9,10,11,12,13,14,15,16,17,18,19,20,31",
            "W:W22,31,35,37,38,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,12,13,14,20,21,36",
            "W:W21,24,27,31,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,17,19,20",
        ],
    ),
    (
        Variant::Turkish,
        11,
        &[
            "W:Wa2,a3,b2,b3,c2,c3,d2,d3,e2,e3,f2,f3,g2,g3,h2,h3:Ba6,a7,b6,b7,c6,c7,d6,d7,e6,e7,f6,f7,g6,g7,h6,h7",
            "W:Wa2,a3,b2,b3,c2,c3,d2,Kd8,e2,e3,f2,f3,g3,g4,h2,h3:Ba5,a7,b6,b7,c6,c7,e5,e7,f6,f7,g6,g7,h5,h7",
            "W:Wa2,b2,c2,d3,f2,f3,h2,h3:Ba7,b6,b7,c4,c7,d6,d7,Ke1,e7,f6,f7,Kg1,g4,g7,h6,h7",
            "W:Wa2,a3,b2,b5,c2,c3,Kc8,d2,d3,e2,f2,f3,g2,Kg8,h2,h3:Ba6,a7,b6,d6,e7,f7,h6,h7",
        ],
    ),
];

/// The size of the table each bench search gets, in MiB.
pub const TABLE_MIB: usize = 16;
