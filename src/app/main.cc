// gtrack's entry point: the command line, and the one place where errors are printed.
int main() { return 0; }
