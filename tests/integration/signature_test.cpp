// Signed sheets (DESIGN §10): every published sample sheet verifies with the stock openssl binary,
// exactly as the README says; a modified one does not; `audit` checks signatures; rotation keeps old
// sheets verifying; publish and sign --all refuse without a key.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

// The README's commands ("Verifying a signature"), after BASE and W are set.
constexpr char const* readme_commands = R"sh(
curl -s $BASE/v1/sheets/$W/signed.txt > sheet.bytes
curl -s $BASE/v1/sheets/$W/signature.txt | base64 -d > sheet.sig
KEY_ID=$(curl -s $BASE/v1/sheets/$W.json | sed -n 's/.*"key_id":"\([0-9a-f]*\)".*/\1/p')
curl -s $BASE/.well-known/lowcostgpu-keys/$KEY_ID.pem > key.pem
openssl pkey -pubin -in key.pem -outform DER | tail -c 32 | sha256sum | cut -c1-16   # prints KEY_ID
openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in sheet.bytes -sigfile sheet.sig
)sh";

// The README's commands for the catalog, after those above (key.pem is the key that signed both).
constexpr char const* readme_catalog_commands = R"sh(
curl -s $BASE/v1/catalog/signature > catalog.json
sed -n 's/.*"signed_bytes":"\([^"]*\)".*/\1/p' catalog.json | sed 's/\\n/\n/g' | head -c -1 > catalog.bytes
sed -n 's/.*"signature":"\([^"]*\)".*/\1/p' catalog.json | base64 -d > catalog.sig
openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in catalog.bytes -sigfile catalog.sig
curl -s $BASE/v1/catalog | sha256sum   # the catalog_sha256 line of catalog.bytes
)sh";

struct shell_result {
    int exit_code = -1;
    std::string output;
};

std::string read_all(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs `script` with /bin/sh in a scratch folder of its own (kept as `dir`).
shell_result run_shell(std::string const& dir, std::string const& script)
{
    std::ofstream(dir + "/script.sh") << "cd " << dir << " || exit 99\n" << script;
    int const status = std::system(("/bin/sh " + dir + "/script.sh >" + dir + "/out.txt 2>&1").c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(dir + "/out.txt")};
}

std::string scratch_dir(std::string const& name)
{
    std::string const dir = "/tmp/lcg-sig-test-" + std::to_string(getpid()) + "-" + name;
    REQUIRE(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()) == 0);
    return dir;
}

std::vector<std::string> published_weeks(server_process const& server)
{
    std::vector<std::string> weeks;
    auto const index = json::parse(server.get("/v1/sheets").body);
    for (auto const& s : index.at("sheets").as_array())
        weeks.emplace_back(s.at("week").as_string());
    return weeks;
}

bool contains(std::string const& text, std::string const& part) { return text.find(part) != std::string::npos; }

// The binary run through the shell with the signing key variables removed from its environment.
shell_result run_without_key(std::string const& dir, std::string const& args)
{
    return run_shell(dir, "env -u LCG_SIGNING_KEY_FILE -u LCG_SIGNING_KEY " + required_env("LCG_BINARY") + " " +
                              args + "\n");
}

}

TEST_CASE("every published sample sheet verifies with stock openssl as the README says, a modified one does not")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const weeks = published_weeks(server);
    REQUIRE(weeks.size() == 10);
    std::string const dir = scratch_dir("readme");
    for (auto const& week : weeks) {
        CAPTURE(week);
        auto const sheet = json::parse(server.get("/v1/sheets/" + week).body).as_object();
        std::string const key_id(sheet.at("key_id").as_string());
        std::string const prefix =
            "BASE=http://127.0.0.1:" + std::to_string(server.port()) + " W=" + week + "\nset -e\n";
        auto const good = run_shell(dir, prefix + readme_commands);
        CHECK(good.exit_code == 0);
        CHECK(contains(good.output, key_id + "  \n") == false);  // cut keeps only the id
        CHECK(contains(good.output, key_id + "\n"));
        CHECK(contains(good.output, "Signature Verified Successfully"));

        // One figure changed in the signed text: the same command fails.
        auto const bad = run_shell(dir, "sed -i 's/^row h100-sxm true /row h100-sxm false /' sheet.bytes\n"
                                        "grep -q '^row h100-sxm false ' sheet.bytes || exit 98\n"
                                        "openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in sheet.bytes "
                                        "-sigfile sheet.sig\n");
        CHECK(bad.exit_code == 1);
        CHECK(contains(bad.output, "Signature Verification Failure"));
    }
}

TEST_CASE("the signed catalog verifies with stock openssl as the README says, a modified one does not")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const dir = scratch_dir("catalog");
    std::string const prefix = "BASE=http://127.0.0.1:" + std::to_string(server.port()) + " W=current\nset -e\n";
    auto const good = run_shell(dir, prefix + readme_commands + readme_catalog_commands);
    CHECK(good.exit_code == 0);
    auto const signature = json::parse(server.get("/v1/catalog/signature").body).as_object();
    std::string const sha256(signature.at("catalog_sha256").as_string());
    CHECK(read_all(dir + "/catalog.bytes") == std::string(signature.at("signed_bytes").as_string()));
    CHECK(contains(good.output, "Signature Verified Successfully\nSignature Verified Successfully\n" + sha256));
    // The signed index: every published sheet, oldest first, with the length of its inputs.
    auto const& listed = signature.at("sheets").as_array();
    auto const weeks = published_weeks(server);  // newest first
    REQUIRE(listed.size() == weeks.size());
    for (std::size_t i = 0; i < listed.size(); ++i) {
        auto const& entry = listed[i].as_object();
        std::string const week(entry.at("week").as_string());
        CHECK(week == weeks[weeks.size() - 1 - i]);
        auto const sheet = json::parse(server.get("/v1/sheets/" + week).body).as_object();
        CHECK(entry.at("published_at") == sheet.at("published_at"));
        CHECK(entry.at("inputs_sha256") == sheet.at("inputs_sha256"));
        CHECK(entry.at("inputs_bytes").as_int64() ==
              static_cast<std::int64_t>(server.get("/v1/sheets/" + week + "/observations.csv").body.size()));
    }

    auto const bad = run_shell(dir, "sed -i 's/^catalog_bytes [0-9]*/catalog_bytes 1/' catalog.bytes\n"
                                    "openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in catalog.bytes "
                                    "-sigfile catalog.sig\n");
    CHECK(bad.exit_code == 1);
    CHECK(contains(bad.output, "Signature Verification Failure"));
}

TEST_CASE("audit checks every signature with the published keys and names what failed")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const base = "http://127.0.0.1:" + std::to_string(server.port());
    auto const passed = run_lowcostgpu({"audit", "--url", base, "--all"});
    CHECK(passed.exit_code == 0);
    CHECK(contains(passed.out, "ok   signature Ed25519, key "));
    CHECK_FALSE(contains(passed.out, "FAIL"));

    // Keys the operator never published: every signature is refused, and the audit says why.
    std::string const dir = scratch_dir("wrong-keys");
    auto const made = run_shell(dir, "openssl genpkey -algorithm ed25519 -out other.pem && " +
                                         required_env("LCG_BINARY") +
                                         " public-key --signing-key other.pem --valid-from 2000-01-01T00:00:00Z > "
                                         "keys.json\n");
    REQUIRE(made.exit_code == 0);
    auto const refused = run_lowcostgpu({"audit", "--url", base, "--all", "--keys", dir + "/keys.json"});
    CHECK(refused.exit_code == 1);
    CHECK(contains(refused.out, "FAIL signature: the sheet names key "));
    CHECK(contains(refused.out, "not among the published keys"));

    // The sheet's JSON altered after signing: the rebuilt bytes no longer match the signature.
    std::string const week = this_week();
    auto sheet = server.get("/v1/sheets/" + week).body;
    auto const at = sheet.find("\"on_demand\":\"1.680\"");
    REQUIRE(at != std::string::npos);
    sheet.replace(at, 19, "\"on_demand\":\"1.679\"");
    std::ofstream(dir + "/sheet.json") << sheet;
    std::ofstream(dir + "/inputs.csv") << server.get("/v1/sheets/" + week + "/observations.csv").body;
    std::ofstream(dir + "/served-keys.json") << server.get("/.well-known/lowcostgpu-keys.json").body;
    auto const tampered = run_lowcostgpu(
        {"audit", "--sheet", dir + "/sheet.json", "--observations", dir + "/inputs.csv", "--keys", dir + "/served-keys.json"});
    CHECK(tampered.exit_code == 1);
    CHECK(contains(tampered.out, "FAIL signature: the signature does not match"));

    // A count 2^32 larger than the signed one: read as 32 bits it rebuilt the signed bytes exactly
    // and the signature passed for figures it never covered (issue 29, low).
    auto big = json::parse(server.get("/v1/sheets/" + week).body).as_object();
    big["observations"] = big.at("observations").as_int64() + (std::int64_t{1} << 32);
    std::ofstream(dir + "/big-count.json") << json::serialize(big);
    auto const widened = run_lowcostgpu({"audit", "--sheet", dir + "/big-count.json", "--observations",
                                         dir + "/inputs.csv", "--keys", dir + "/served-keys.json"});
    CAPTURE(widened.out);
    CHECK(widened.exit_code == 1);
    CHECK_FALSE(contains(widened.out, "ok   signature"));
    CHECK(contains(widened.out, "FAIL signature: cannot rebuild the signed bytes: the sheet's observations"));
}

TEST_CASE("publish refuses to run without a signing key unless --unsigned, and sign --all signs once")
{
    test_database db;
    std::string const dir = scratch_dir("unsigned");
    auto const refused = run_without_key(dir, "publish --database-url " + db.url("publisher") + " --week " +
                                                  this_week() + " --replace");
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.output, "no signing key"));

    auto const unsigned_publish = run_without_key(dir, "publish --unsigned --database-url " + db.url("publisher") +
                                                           " --week " + this_week() + " --replace");
    CHECK(unsigned_publish.exit_code == 0);
    CHECK(contains(unsigned_publish.output, "NOT signed"));
    {
        server_process server(db.url("reader"));
        auto const sheet = json::parse(server.get("/v1/sheets/" + this_week()).body).as_object();
        CHECK(sheet.at("signature").is_null());
        CHECK(sheet.at("key_id").is_null());
        CHECK(server.get("/v1/sheets/" + this_week() + "/signature.txt").status == 404);
        CHECK(server.get("/v1/sheets/" + this_week() + "/signed.txt").status == 200);
        auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()),
                                           "--week", this_week()});
        CHECK(audit.exit_code == 1);
        CHECK(contains(audit.out, "FAIL signature: the sheet is not signed"));
    }

    CHECK(run_without_key(dir, "sign --all --database-url " + db.url("publisher")).exit_code == 2);
    auto const signed_now = run_lowcostgpu({"sign", "--all", "--database-url", db.url("publisher")});
    CHECK(signed_now.exit_code == 0);
    CHECK(contains(signed_now.out, "signed " + this_week() + "\n"));
    CHECK(contains(signed_now.out, "1 sheet(s) signed"));
    auto const again = run_lowcostgpu({"sign", "--all", "--database-url", db.url("publisher")});
    CHECK(contains(again.out, "0 sheet(s) signed"));
    CHECK_FALSE(contains(again.out, "signed the catalog"));  // unchanged since publish signed it

    server_process server(db.url("reader"));
    auto const audit =
        run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()), "--all"});
    CHECK(audit.exit_code == 0);
}

TEST_CASE("rotation: a new key signs new sheets and old sheets keep verifying with the old one")
{
    test_database db;
    std::string const dir = scratch_dir("rotation");
    std::string const bin = required_env("LCG_BINARY");
    std::string const old_keys = required_env("LCG_PUBLIC_KEYS_FILE");
    auto const rotated = run_shell(dir, "set -e\nopenssl genpkey -algorithm ed25519 -out new.pem\n" + bin +
                                            " public-key --signing-key new.pem --keys " + old_keys +
                                            " > keys.json\n" + bin + " publish --signing-key new.pem --public-keys keys.json --replace " +
                                            "--week " + this_week() + " --database-url " + db.url("publisher") + "\n");
    REQUIRE(rotated.exit_code == 0);
    CHECK(contains(rotated.output, "signed with key "));

    server_process server(db.url("reader"), {"--public-keys", dir + "/keys.json"});
    auto const keys = json::parse(server.get("/.well-known/lowcostgpu-keys.json").body).at("keys").as_array();
    REQUIRE(keys.size() == 2);
    CHECK(keys[0].at("valid_until").is_string());  // the old key, closed when the new one starts
    CHECK(keys[1].at("valid_until").is_null());
    CHECK(keys[1].at("valid_from") == keys[0].at("valid_until"));
    auto const current = json::parse(server.get("/v1/sheets/" + this_week()).body).as_object();
    auto const previous = json::parse(server.get("/v1/sheets/" + published_weeks(server)[1]).body).as_object();
    CHECK(current.at("key_id") == keys[1].at("key_id"));
    CHECK(previous.at("key_id") == keys[0].at("key_id"));
    auto const methodology = json::parse(server.get("/v1/methodology").body).as_object();
    CHECK(methodology.at("signatures").at("keys").as_array().size() == 2);

    auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()), "--all"});
    CHECK(audit.exit_code == 0);
    CHECK(contains(audit.out, "audit passed: 10 sheet(s)"));
}
