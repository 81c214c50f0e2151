ws-output-format: 4
tool: ws 0.1.0
command: ./x
pid: 1
ppid: 0
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
count-rep: once
columns: t insn data
100000 1 9000
stack 1 3
inline 0x1000 stl_algobase.h:922 std::__fill_a1<unsigned int*, std::less<int> >(unsigned int*, unsigned int*, unsigned int const&)
frame 0x1000 reindex.cc:46 (anonymous namespace)::rebuild((anonymous namespace)::Index&, unsigned int) [clone .constprop.0]
frame 0x2000 reindex.cc:89 std::vector<int, std::allocator<int> >::operator<(std::vector<int, std::allocator<int> > const&) const
peak 0 data 100000 9000 1 largest,detected rise 1 1
owner 0 9000 anon
peaks 1 found 1
summary insn 1.0 1 1
summary data 9000.0 9000 9000
samples 1
end
