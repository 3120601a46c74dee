package result

// TransportVar is an MPI_T control variable that says which transport
// the library was asked to use: its name, and how explain names it.
type TransportVar struct {
	Name, Label string
}

// TransportVars are the control variables gomb reads after MPI_Init
// (Run.MPI.Vars): those whose default is empty, so that a value means
// someone asked for it, through the environment, a parameter file
// (Open MPI's mca-params.conf, which the environment does not show) or
// the launcher's command line. Open MPI 4.1 keeps every opened
// component's variables after selection, so which pml or btl it chose
// cannot be read this way; what was asked for can.
var TransportVars = []TransportVar{
	{"pml", "Open MPI pml"}, {"btl", "Open MPI btl"}, {"mtl", "Open MPI mtl"}, {"osc", "Open MPI osc"},
	{"btl_tcp_if_include", "Open MPI btl_tcp_if_include"}, {"mtl_ofi_provider_include", "libfabric"},
	{"MPIR_CVAR_CH4_NETMOD", "MPICH netmod"}, {"MPIR_CVAR_NEMESIS_NETMOD", "MPICH netmod"},
	{"MPIR_CVAR_OFI_USE_PROVIDER", "libfabric"},
}
