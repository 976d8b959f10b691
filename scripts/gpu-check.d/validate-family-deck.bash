# shellcheck shell=bash
# family_deck: one deck of validate's generated family (the same decks as tests/ValidationFamily.hh), on
# stdout. Sourced by gpu-check.d/45-validate-family.sh and 46-validate-perturbed.sh (not a part itself:
# parts end in .sh).
family_deck() {  # DIST GRID N COLD(0/1) LONG(0/1) FODO(0/1) TCODE(0/1) SOLVER
    local emit='"1 um"' spt=1e-4 st='"1 mm"' planes=$2
    [ "$4" = 1 ] && emit='"0.001 um"' && spt=1e-7
    [ "$5" = 1 ] && st='"50 mm"'
    [ "$8" = 2.5d ] && planes=16
    printf '[run]\nname = "family"\nseed = 3\n'
    [ "$7" = 1 ] && printf 'tracking = "t"\n'
    printf '[beam]\nparticle = "proton"\nkinetic_energy = "10 MeV"\nbunch_charge = "50 pC"\nmacroparticles = %s\ndistribution = "%s"\n' "$3" "$1"
    [ "$1" = gaussian ] && printf 'truncate = 4\n'
    printf '[beam.twiss]\nbeta_x = 1.0\nalpha_x = -0.5\nemittance_x = %s\nbeta_y = 0.7\nalpha_y = 0.3\nemittance_y = %s\nsigma_t = %s\nsigma_pt = %s\n' "$emit" "$emit" "$st" "$spt"
    printf '[elements]\nQF = { type = "quadrupole", length = "10 cm", k1 = 20.0, tracking = "z" }\nQD = { type = "quadrupole", length = "10 cm", k1 = -20.0, tracking = "z" }\nD  = { type = "drift", length = "20 cm" }\n[lattice]\n'
    if [ "$6" = 1 ]; then printf 'cell = ["QF", "D", "QD", "D"]\nline = ["cell*2"]\n'; else printf 'line = ["D*6"]\n'; fi
    printf '[space_charge]\nenabled = true\ngrid = [%s, %s, %s]\nkicks_per_meter = 20\ndeposition = "deterministic"\nsolver = "%s"\n' "$2" "$2" "$planes" "$8"
}
