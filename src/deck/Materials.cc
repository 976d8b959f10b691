// Built-in materials and user compositions.
#include "deck/Materials.hh"

#include <cmath>
#include <stdexcept>

namespace gt {

namespace {

// Standard atomic weights (IUPAC, abridged; for Z without one, and for elements added for the shower
// physics, xraylib 4.3.0's AtomicWeight (Tm: IUPAC 168.93, xraylib has 167.27), the mass number of the
// longest-lived isotope for the radioactive ones) and mean excitation energies (ICRU Report 37 / Seltzer &
// Berger, Int. J. Appl. Radiat. Isot. 33 (1982) 1189, as in the PDG's atomic and nuclear properties tables).
// Z = 1-98, the elements with photoelectric data (src/detector/PhotoelectricFits.cc).
constexpr ElementData k_elements[] = {
    {"H", 1, 1.008, 19.2},     {"He", 2, 4.0026, 41.8},   {"Li", 3, 6.94, 40.0},
    {"Be", 4, 9.0122, 63.7},   {"B", 5, 10.81, 76.0},     {"C", 6, 12.011, 78.0},
    {"N", 7, 14.007, 82.0},    {"O", 8, 15.999, 95.0},    {"F", 9, 18.998, 115.0},
    {"Ne", 10, 20.18, 137.0},  {"Na", 11, 22.99, 149.0},  {"Mg", 12, 24.305, 156.0},
    {"Al", 13, 26.982, 166.0}, {"Si", 14, 28.085, 173.0}, {"P", 15, 30.974, 173.0},
    {"S", 16, 32.06, 180.0},   {"Cl", 17, 35.45, 174.0},  {"Ar", 18, 39.948, 188.0},
    {"K", 19, 39.098, 190.0},  {"Ca", 20, 40.078, 191.0}, {"Sc", 21, 44.96, 216.0},
    {"Ti", 22, 47.867, 233.0}, {"V", 23, 50.94, 245.0},   {"Cr", 24, 51.996, 257.0},
    {"Mn", 25, 54.938, 272.0}, {"Fe", 26, 55.845, 286.0}, {"Co", 27, 58.93, 297.0},
    {"Ni", 28, 58.693, 311.0}, {"Cu", 29, 63.546, 322.0}, {"Zn", 30, 65.38, 330.0},
    {"Ga", 31, 69.72, 334.0},  {"Ge", 32, 72.63, 350.0},  {"As", 33, 74.92, 347.0},
    {"Se", 34, 78.96, 348.0},  {"Br", 35, 79.92, 343.0},  {"Kr", 36, 83.8, 352.0},
    {"Rb", 37, 85.48, 363.0},  {"Sr", 38, 87.62, 366.0},  {"Y", 39, 88.9, 379.0},
    {"Zr", 40, 91.22, 393.0},  {"Nb", 41, 92.91, 417.0},  {"Mo", 42, 95.95, 424.0},
    {"Tc", 43, 99.0, 428.0},   {"Ru", 44, 101.07, 441.0}, {"Rh", 45, 102.91, 449.0},
    {"Pd", 46, 106.4, 470.0},  {"Ag", 47, 107.87, 470.0}, {"Cd", 48, 112.41, 469.0},
    {"In", 49, 114.82, 488.0}, {"Sn", 50, 118.71, 488.0}, {"Sb", 51, 121.76, 487.0},
    {"Te", 52, 127.6, 485.0},  {"I", 53, 126.9, 491.0},   {"Xe", 54, 131.3, 482.0},
    {"Cs", 55, 132.91, 488.0}, {"Ba", 56, 137.33, 491.0}, {"La", 57, 138.92, 501.0},
    {"Ce", 58, 140.13, 523.0}, {"Pr", 59, 140.92, 535.0}, {"Nd", 60, 144.27, 546.0},
    {"Pm", 61, 147.0, 560.0},  {"Sm", 62, 150.35, 574.0}, {"Eu", 63, 152.0, 580.0},
    {"Gd", 64, 157.26, 591.0}, {"Tb", 65, 158.93, 614.0}, {"Dy", 66, 162.51, 628.0},
    {"Ho", 67, 164.94, 650.0}, {"Er", 68, 167.27, 658.0}, {"Tm", 69, 168.93, 674.0},
    {"Yb", 70, 173.04, 684.0}, {"Lu", 71, 174.99, 694.0}, {"Hf", 72, 178.5, 705.0},
    {"Ta", 73, 180.95, 718.0}, {"W", 74, 183.84, 727.0},  {"Re", 75, 186.2, 736.0},
    {"Os", 76, 190.2, 746.0},  {"Ir", 77, 192.2, 757.0},  {"Pt", 78, 195.08, 790.0},
    {"Au", 79, 196.97, 790.0}, {"Hg", 80, 200.61, 800.0}, {"Tl", 81, 204.39, 810.0},
    {"Pb", 82, 207.2, 823.0},  {"Bi", 83, 208.98, 823.0}, {"Po", 84, 209.0, 830.0},
    {"At", 85, 210.0, 825.0},  {"Rn", 86, 222.0, 794.0},  {"Fr", 87, 223.0, 827.0},
    {"Ra", 88, 226.02, 826.0}, {"Ac", 89, 227.0, 841.0},  {"Th", 90, 232.0, 847.0},
    {"Pa", 91, 231.04, 878.0}, {"U", 92, 238.03, 890.0},  {"Np", 93, 237.0, 902.0},
    {"Pu", 94, 239.1, 921.0},  {"Am", 95, 243.0, 934.0},  {"Cm", 96, 247.0, 939.0},
    {"Bk", 97, 249.0, 952.0},  {"Cf", 98, 251.0, 966.0},
};

struct BuiltinMaterial {
    char const* name;
    double density;  // [g/cm^3]
    double z_over_a;
    double i_ev;
    double x0_gcm2;  // radiation length [g/cm^2]
    double cbar, x0, x1, a, k, delta0;
};

// Sternheimer, Berger & Seltzer, At. Data Nucl. Data Tables 30 (1984) 261 (density-effect
// parameters, I, Z/A, density), radiation lengths from the PDG atomic and nuclear properties
// tables. Water keeps the I = 75.0 eV the density-effect parameters were fitted with.
constexpr BuiltinMaterial k_materials[] = {
    {"air", 1.20479e-3, 0.49919, 85.7, 36.62, 10.5961, 1.7418, 4.2759, 0.10914, 3.3994, 0.0},
    {"silicon", 2.329, 0.49848, 173.0, 21.82, 4.4355, 0.2015, 2.8716, 0.14921, 3.2546, 0.14},
    {"aluminium", 2.699, 0.48181, 166.0, 24.01, 4.2395, 0.1708, 3.0127, 0.08024, 3.6345, 0.12},
    {"iron", 7.874, 0.46557, 286.0, 13.84, 4.2911, -0.0012, 3.1531, 0.14680, 2.9632, 0.12},
    {"copper", 8.960, 0.45636, 322.0, 12.86, 4.4190, -0.0254, 3.2792, 0.14339, 2.9044, 0.08},
    {"tungsten", 19.30, 0.40252, 727.0, 6.76, 5.4059, 0.2167, 3.4960, 0.15509, 2.8447, 0.14},
    {"lead", 11.35, 0.39575, 823.0, 6.37, 6.2018, 0.3776, 3.8073, 0.09359, 3.1608, 0.14},
    {"liquid_argon", 1.396, 0.45059, 188.0, 19.55, 5.2146, 0.2000, 3.0000, 0.19559, 3.0000, 0.0},
    {"polystyrene", 1.060, 0.53768, 68.7, 43.79, 3.2999, 0.1647, 2.5031, 0.16454, 3.2224, 0.0},
    {"water", 1.000, 0.55509, 75.0, 36.08, 3.5017, 0.2400, 2.8004, 0.09116, 3.4773, 0.0},
    {"csi", 4.510, 0.41569, 553.1, 8.39, 6.2807, 0.0395, 3.3353, 0.25381, 2.6657, 0.0},
};

constexpr double k_ev = 1.0e-6;  // [MeV]

}  // namespace

ElementData const* find_element(std::string const& symbol)
{
    for (auto const& e : k_elements)
        if (symbol == e.symbol) return &e;
    return nullptr;
}

std::vector<std::string> element_symbols()
{
    std::vector<std::string> out;
    for (auto const& e : k_elements) out.emplace_back(e.symbol);
    return out;
}

std::vector<std::string> builtin_material_names()
{
    std::vector<std::string> out = {"vacuum"};
    for (auto const& m : k_materials) out.emplace_back(m.name);
    return out;
}

std::optional<MaterialParams> builtin_material(std::string const& name)
{
    if (name == "vacuum") {
        MaterialParams v;
        v.radiation_length = HUGE_VAL;
        return v;
    }
    for (auto const& m : k_materials) {
        if (name != m.name) continue;
        MaterialParams p;
        p.density = m.density * 1.0e3;
        p.z_over_a = m.z_over_a;
        p.mean_excitation = m.i_ev * k_ev;
        p.radiation_length = m.x0_gcm2 / m.density * 1.0e-2;
        p.cbar = m.cbar;
        p.x0 = m.x0;
        p.x1 = m.x1;
        p.a = m.a;
        p.k = m.k;
        p.delta0 = m.delta0;
        return p;
    }
    return std::nullopt;
}

double element_radiation_length(int z, double a)
{
    double const zz = static_cast<double>(z);
    return 716.4 * a / (zz * (zz + 1.0) * std::log(287.0 / std::sqrt(zz)));
}

void sternheimer_peierls(MaterialParams& m, bool gas)
{
    double const ln10 = std::log(10.0);
    double const plasma_ev = 28.816 * std::sqrt(m.density * 1.0e-3 * m.z_over_a);  // PDG eq. 34.6
    double const c = 1.0 + 2.0 * std::log(m.mean_excitation / (plasma_ev * k_ev));
    double x0 = 0, x1 = 0;
    double const i_ev = m.mean_excitation / k_ev;
    if (!gas) {
        if (i_ev < 100.0) {
            x1 = 2.0;
            x0 = c <= 3.681 ? 0.2 : 0.326 * c - 1.0;
        } else {
            x1 = 3.0;
            x0 = c <= 5.215 ? 0.2 : 0.326 * c - 1.5;
        }
    } else {
        x1 = 4.0;
        if (c < 10.0)
            x0 = 1.6;
        else if (c < 10.5)
            x0 = 1.7;
        else if (c < 11.0)
            x0 = 1.8;
        else if (c < 11.5)
            x0 = 1.9;
        else if (c < 12.25)
            x0 = 2.0;
        else if (c < 13.804) {
            x0 = 2.0;
            x1 = 5.0;
        } else {
            x0 = 0.326 * c - 2.5;
            x1 = 5.0;
        }
    }
    m.cbar = c;
    m.x0 = x0;
    m.x1 = x1;
    m.k = 3.0;
    m.a = 2.0 * ln10 * (c / (2.0 * ln10) - x0) / std::pow(x1 - x0, 3.0);
    m.delta0 = 0.0;
}

MaterialParams make_material(MaterialConfig const& cfg)
{
    MaterialParams m;
    m.density = cfg.density;
    double z_over_a = 0, ln_i = 0, inv_x0 = 0;
    for (auto const& [symbol, w] : cfg.elements) {
        ElementData const* e = find_element(symbol);
        if (!e) throw std::invalid_argument("unknown element " + symbol);
        double const za = e->z / e->a;
        z_over_a += w * za;
        ln_i += w * za * std::log(e->mean_excitation * k_ev);
        inv_x0 += w / element_radiation_length(e->z, e->a);
    }
    m.z_over_a = z_over_a;
    m.mean_excitation = cfg.mean_excitation ? *cfg.mean_excitation : std::exp(ln_i / z_over_a);
    m.radiation_length = (1.0 / inv_x0) / (cfg.density * 1.0e-3) * 1.0e-2;
    sternheimer_peierls(m, cfg.density < 10.0);
    return m;
}

}  // namespace gt
