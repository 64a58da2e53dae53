// lowcostgpu import-observations: a market observations CSV, imported whole or not at all.
#include "server/cli/commands.hpp"
#include "server/cli/files.hpp"
#include "server/store/database.hpp"

#include <fstream>
#include <iostream>

#include <unistd.h>

namespace lcg::cli {

int run_import_observations(arguments const& args)
{
    allow_only(args, {"database-url"}, 1);
    if (args.positional.size() != 1)
        throw usage_error("import-observations needs a FILE (or - for standard input)");
    std::string const& path = args.positional[0];
    std::ifstream file;
    std::istream& in = open_input(path, file);
    store::database db(database_url(args));
    bool const tty = isatty(STDERR_FILENO);
    auto const summary = db.import_observations(in, [tty](long lines) {
        if (tty)
            std::cerr << "\r" << lines << " lines read" << std::flush;
    });
    if (tty)
        std::cerr << "\n";
    if (!summary.ok()) {
        std::cerr << "refused: " << summary.bad_lines << " bad line(s); nothing was imported\n";
        for (auto const& p : summary.problems)
            std::cerr << "  line " << p.line << ": " << p.reason << "\n";
        if (summary.bad_lines > static_cast<long>(summary.problems.size()))
            std::cerr << "  (only the first " << summary.problems.size() << " are listed)\n";
        return 1;
    }
    std::cout << "imported " << summary.imported << " observations";
    if (summary.duplicates > 0)
        std::cout << " (" << summary.duplicates << " already imported, skipped)";
    std::cout << "\n";
    return 0;
}

}
