// The publication log (issue 26, DESIGN §10) checked by Go's own transparency-log packages
// (tests/trust/tlogverify, built from Debian's golang-golang-x-mod-dev): the sample's log, a
// correction and a re-signing under a new key extend it consistently; a rewritten entry, a log that
// shrank and an edit of the table itself are caught.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

std::string scratch(std::string const& name)
{
    std::string const dir = "/tmp/lcg-log-test-" + std::to_string(getpid()) + "-" + name;
    REQUIRE(run_shell("rm -rf " + dir + " && mkdir -p " + dir).status == 0);
    return dir;
}

// The note verifier keys the server publishes for its log, comma-separated as tlogverify takes them:
// read by the README's sed, and checked against the JSON.
std::string verifier_keys(server_process const& server)
{
    auto const log = json::parse(server.get("/v1/log").body).as_object();
    std::string out;
    for (auto const& k : log.at("verifier_keys").as_array())
        out += (out.empty() ? "" : ",") + std::string(k.as_string());
    auto const by_sed = run_shell("curl -s http://127.0.0.1:" + std::to_string(server.port()) +
                                  "/v1/log | sed -n 's/.*\"verifier_keys\":\\[\"\\([^]]*\\)\"\\].*/\\1/p' | sed 's/\",\"/,/g'");
    CHECK(by_sed.out == out + "\n");
    return out;
}

shell_result verify(server_process const& server, std::string const& keys, std::string const& extra = {})
{
    return run_shell(std::string(LCG_TLOGVERIFY) + " -base http://127.0.0.1:" + std::to_string(server.port()) +
                     " -vkey '" + keys + "' " + extra + " 2>&1");
}

long log_size(server_process const& server)
{
    auto const body = server.get("/v1/log/checkpoint").body;
    auto const second = body.substr(body.find('\n') + 1);
    return std::stol(second.substr(0, second.find('\n')));
}

std::string past_week(int weeks_back)
{
    auto w = current_week();
    for (int i = 0; i < weeks_back; ++i)
        w = lcg::pricing::previous_week(w);
    return lcg::pricing::to_string(w);
}

bool contains(std::string const& text, std::string const& part) { return text.find(part) != std::string::npos; }

}

TEST_CASE("Go sumdb tlog and note verify the log and a correction and a re-signing extend it consistently")
{
    test_database db;
    auto const dir = scratch("extend");
    long const sheets = db.count("sheet");
    REQUIRE(sheets >= 2);
    {
        server_process server(db.url("reader"));
        REQUIRE(log_size(server) == sheets);
        auto const first = verify(server, verifier_keys(server), "-save " + dir + "/first.checkpoint");
        INFO(first.out);
        REQUIRE(first.status == 0);
        CHECK(contains(first.out, "checkpoint: lowcostgpu.local/v1/log, " + std::to_string(sheets) + " entries"));
        // Our own audit agrees, remembers the checkpoint, and marks the sample's backfilled weeks late.
        auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()),
                                           "--log-checkpoint", dir + "/audit.checkpoint"});
        INFO(audit.out);
        CHECK(audit.exit_code == 0);
        CHECK(contains(audit.out, "entry 0: " + past_week(static_cast<int>(sheets) - 1) + " publication published "));
        CHECK(contains(audit.out, " LATE by "));
        CHECK(contains(audit.out, "publication log: lowcostgpu.local/v1/log, " + std::to_string(sheets) + " entries - PASS"));
    }
    // A correction of last week, then every sheet signed again by a new key (a rotation after a
    // compromise: the new key valid from 2000, a second after the old one, which closes then).
    std::string const corrected = past_week(1);
    auto const fix = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", corrected, "--replace",
                                     "--reason", "a source listed prices per GPU-minute"});
    REQUIRE(fix.exit_code == 0);
    CHECK(contains(fix.out, "the publication log holds " + std::to_string(sheets + 1) + " entries"));
    auto const keys = run_shell("cd " + dir + " && openssl genpkey -algorithm ed25519 -out new.pem && " +
                                required_env("LCG_BINARY") + " public-key --signing-key new.pem --valid-from 2000-01-01T00:00:01Z --keys " +
                                required_env("LCG_PUBLIC_KEYS_FILE") + " > keys.json");
    REQUIRE(keys.status == 0);
    auto const resign = run_lowcostgpu({"sign", "--all", "--resign", "--database-url", db.url("publisher"), "--signing-key",
                                        dir + "/new.pem", "--public-keys", dir + "/keys.json"});
    INFO(resign.out);
    REQUIRE(resign.exit_code == 0);
    CHECK(contains(resign.out, std::to_string(sheets) + " sheet(s) signed"));

    server_process server(db.url("reader"), {"--public-keys", dir + "/keys.json"});
    CHECK(log_size(server) == 2 * sheets + 1);
    auto const after = verify(server, verifier_keys(server), "-sheets -old " + dir + "/first.checkpoint");
    INFO(after.out);
    REQUIRE(after.status == 0);
    CHECK(contains(after.out, "consistent with the checkpoint of " + std::to_string(sheets) + " entries"));
    CHECK(contains(after.out, "sheet " + corrected + ": signed, and the version logged last"));
    CHECK(contains(after.out, "entry " + std::to_string(sheets) + ": " + corrected + " correction "));
    CHECK(contains(after.out, "entry " + std::to_string(2 * sheets) + ": " + this_week() + " signature "));

    auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()), "--keys",
                                       dir + "/keys.json", "--log-checkpoint", dir + "/audit.checkpoint"});
    INFO(audit.out);
    CHECK(audit.exit_code == 0);
    CHECK(contains(audit.out, "extends the previous checkpoint of " + std::to_string(sheets) + " entries"));
    CHECK(contains(audit.out, corrected + " correction published "));
    CHECK(contains(audit.out, "(a source listed prices per GPU-minute)"));

    // A mirror that pins the new key alone (the pin an operator makes after a rotation) follows the
    // whole log: the versions the old key signed are re-served without their signatures.
    auto const new_only = run_shell("cd " + dir + " && " + required_env("LCG_BINARY") +
                                    " public-key --signing-key new.pem --valid-from 2000-01-01T00:00:01Z > new-only.json");
    REQUIRE(new_only.status == 0);
    {
        server_process mirror(serve_arguments{{"--upstream", "http://127.0.0.1:" + std::to_string(server.port()),
                                               "--upstream-keys", dir + "/new-only.json", "--upstream-interval", "1"}},
                              false);
        CHECK(eventually([&] { return mirror.get("/readyz").status == 200; }, std::chrono::seconds(15)));
        INFO(mirror.get("/readyz").body);
        CHECK(log_size(mirror) == 2 * sheets + 1);
        CHECK(mirror.get("/v1/log/entries/0/signature.txt").status == 404);
        auto const newest = "/v1/log/entries/" + std::to_string(2 * sheets) + "/signature.txt";
        CHECK(mirror.get(newest).body == server.get(newest).body);
    }

    // The corrected week says so, and each earlier version stays readable as signed.
    auto const sheet = json::parse(server.get("/v1/sheets/" + corrected).body).as_object();
    auto const& publication = sheet.at("publication").as_object();
    CHECK(publication.at("corrected").as_bool());
    auto const& versions = publication.at("versions").as_array();
    REQUIRE(versions.size() == 3);  // published, corrected, signed again
    CHECK(versions[1].at("reason").as_string() == "a source listed prices per GPU-minute");
    auto const first = server.get(std::string(versions[0].at("signed_bytes").as_string()));
    CHECK(first.status == 200);
    CHECK(first.body != server.get("/v1/sheets/" + corrected + "/signed.txt").body);
    CHECK(contains(server.get("/v1/sheets/" + corrected + ".md").body, "a source listed prices per GPU-minute"));
    CHECK(contains(server.get("/v1/sheets.atom").body, "(corrected)"));
    auto const index = json::parse(server.get("/v1/sheets").body);
    for (auto const& listed : index.at("sheets").as_array())
        CHECK(listed.at("corrected").as_bool() == (listed.at("week").as_string() == corrected));
    // The sample's older weeks were published together, weeks after their Monday: marked late.
    auto const oldest = json::parse(server.get("/v1/sheets/" + past_week(static_cast<int>(sheets) - 1)).body).as_object();
    CHECK(oldest.at("publication").at("late_by_seconds").as_int64() > 0);

    // The served sheet is the version the log's newest entry of its week names.
    auto const signed_sha = run_shell("curl -s http://127.0.0.1:" + std::to_string(server.port()) + "/v1/sheets/" +
                                      corrected + "/signed.txt | sha256sum | cut -c1-64");
    CHECK(contains(after.out, corrected + " signature " + signed_sha.out.substr(0, 64)));
}

TEST_CASE("a rewritten entry or a log that shrank or any edit of the log table is caught")
{
    test_database db;
    auto const dir = scratch("tamper");
    // The log is append-only for every role, its owner included.
    CHECK(run_shell("psql -X -q -v ON_ERROR_STOP=1 '" + db.url("owner") + "' -c 'DELETE FROM log_entry' 2>&1").status != 0);
    CHECK(run_shell("psql -X -q -v ON_ERROR_STOP=1 '" + db.url("owner") + "' -c \"UPDATE log_entry SET kind = 'x'\" 2>&1")
              .status != 0);

    test_database shorter;
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", past_week(1), "--replace",
                            "--reason", "recomputed"})
                .exit_code == 0);
    {
        server_process server(db.url("reader"));
        REQUIRE(verify(server, verifier_keys(server), "-save " + dir + "/longer.checkpoint").status == 0);
    }
    {
        // The same log one entry shorter, as a server that rolled back would serve it.
        server_process rolled_back(shorter.url("reader"));
        auto const r = verify(rolled_back, verifier_keys(rolled_back), "-old " + dir + "/longer.checkpoint");
        CHECK(r.status != 0);
        CHECK(contains(r.out, "the log shrank"));
        auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(rolled_back.port()),
                                           "--log-checkpoint", dir + "/longer.checkpoint"});
        CHECK(audit.exit_code != 0);
        CHECK(contains(audit.out, "FAIL the log shrank"));
    }
    // One byte of one stored entry changed behind the triggers' back (a superuser can).
    db.exec("ALTER TABLE log_entry DISABLE TRIGGER USER; "
            "UPDATE log_entry SET entry = replace(entry, 'kind publication', 'kind publicatioN') WHERE seq = 1; "
            "ALTER TABLE log_entry ENABLE TRIGGER USER");
    server_process server(db.url("reader"));
    auto const r = verify(server, verifier_keys(server));
    CHECK(r.status != 0);
    CHECK(contains(r.out, "tlogverify:"));
    auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port())});
    CHECK(audit.exit_code != 0);
    CHECK(contains(audit.out, "do not hash to the checkpoint's root"));
    // A mirror of it refuses the log, and says why.
    server_process mirror(serve_arguments{{"--upstream", "http://127.0.0.1:" + std::to_string(server.port()),
                                           "--upstream-keys", required_env("LCG_PUBLIC_KEYS_FILE")}},
                          false);
    CHECK(eventually([&] { return contains(mirror.get("/readyz").body, "do not hash to the checkpoint's root"); },
                     std::chrono::seconds(15)));
    CHECK(mirror.get("/readyz").status == 503);
}

TEST_CASE("a correction relabelled as a re-signing under a checkpoint of the log's own key fails Go and the audit")
{
    test_database db;
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", past_week(1), "--replace",
                            "--reason", "recomputed"})
                .exit_code == 0);
    // The operator, key in hand, relabels the correction and signs a checkpoint over the result:
    // every hash and signature holds, only the kind is out of place.
    long const size = db.count("log_entry");
    db.exec("ALTER TABLE log_entry DISABLE TRIGGER USER; ALTER TABLE log_checkpoint DISABLE TRIGGER USER; "
            "UPDATE log_entry SET kind = 'signature', entry = replace(entry, 'kind correction', 'kind signature') "
            "WHERE seq = " + std::to_string(size - 1) + "; DELETE FROM log_checkpoint WHERE size = " +
            std::to_string(size) + "; ALTER TABLE log_entry ENABLE TRIGGER USER; "
            "ALTER TABLE log_checkpoint ENABLE TRIGGER USER");
    auto const signed_again = run_lowcostgpu({"sign", "--all", "--database-url", db.url("publisher")});
    INFO(signed_again.err);
    REQUIRE(signed_again.exit_code == 0);
    server_process server(db.url("reader"));
    REQUIRE(log_size(server) == size);
    // A mirror refuses it from the entries alone, before downloading a version's bytes.
    std::string const versions_read = R"(lowcostgpu_http_requests_total{route="/v1/log/entries/{index}/signed.txt",status="200"})";
    REQUIRE(server.get("/v1/log/entries/0/signed.txt").status == 200);
    REQUIRE(server.metric(versions_read) == 1);
    {
        server_process mirror(serve_arguments{{"--upstream", "http://127.0.0.1:" + std::to_string(server.port()),
                                               "--upstream-keys", required_env("LCG_PUBLIC_KEYS_FILE")}},
                              false);
        CHECK(eventually([&] { return contains(mirror.get("/readyz").body, "is logged as a signature"); },
                         std::chrono::seconds(15)));
        CHECK(server.metric(versions_read) == 1);
    }
    auto const go = verify(server, verifier_keys(server));
    INFO(go.out);
    CHECK(go.status != 0);
    CHECK(contains(go.out, "entry " + std::to_string(size - 1) + " (" + past_week(1) +
                               ") is logged as a signature, but its place makes it a correction"));
    auto const audit = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port())});
    INFO(audit.out);
    CHECK(audit.exit_code != 0);
    CHECK(contains(audit.out, "is logged as a signature, but its place makes it a correction"));
}

TEST_CASE("tlogverify -old refuses a checkpoint of another log, even one its key signed, and one without its origin's signature")
{
    test_database db;
    auto const dir = scratch("origin");
    server_process server(db.url("reader"));
    // With the same key (openssl) under the name other.example/log: this log's size and root under
    // that origin (other.checkpoint), and this log's checkpoint itself (misnamed.checkpoint); and the
    // note verifier key of that name, which tlogverify is given too.
    auto const other = run_shell(
        "cd " + dir + " && key=" + required_env("LCG_SIGNING_KEY_FILE") + " && curl -s http://127.0.0.1:" +
        std::to_string(server.port()) + "/v1/log/checkpoint | sed -n '1,3p' > misnamed && "
        "sed -n '2,3p' misnamed | sed '1i other.example/log' > other && "
        "openssl pkey -in $key -pubout -outform DER | tail -c 32 > raw && for f in other misnamed; do "
        "openssl pkeyutl -sign -inkey $key -rawin -in $f -out $f.sig && python3 -c \"import base64, hashlib, sys; "
        "f=sys.argv[1]; n=b'other.example/log'; r=open('raw','rb').read(); "
        "h=hashlib.sha256(n+bytes([10,1])+r).digest()[:4]; open(f+'.checkpoint','wb').write(open(f,'rb').read()+"
        "b'\\n\\xe2\\x80\\x94 '+n+b' '+base64.b64encode(h+open(f+'.sig','rb').read())+b'\\n'); "
        "print(n.decode()+'+'+h.hex()+'+'+base64.b64encode(bytes([1])+r).decode(), end='')\" $f > vkey; done && cat vkey");
    REQUIRE(other.status == 0);
    auto const keys = verifier_keys(server) + "," + other.out;
    auto const moved = verify(server, keys, "-old " + dir + "/other.checkpoint");
    INFO(moved.out);
    CHECK(moved.status != 0);
    CHECK(contains(moved.out, "the checkpoint names the log \"lowcostgpu.local/v1/log\", the one accepted before "
                              "\"other.example/log\""));
    auto const misnamed = verify(server, keys, "-old " + dir + "/misnamed.checkpoint");
    INFO(misnamed.out);
    CHECK(misnamed.status != 0);
    CHECK(contains(misnamed.out, "-old: checkpoint: no signature under its origin \"lowcostgpu.local/v1/log\""));
}

// The README's commands for signify, after BASE and W are set and sheet.bytes and KEY_ID fetched.
constexpr char const* signify_commands = R"sh(
curl -s $BASE/v1/sheets/$W/signed.txt > sheet.bytes
KEY_ID=$(curl -s $BASE/v1/sheets/$W.json | sed -n 's/.*"key_id":"\([0-9a-f]*\)".*/\1/p')
curl -s $BASE/v1/sheets/$W/signed.txt.sig > sheet.bytes.sig; curl -s $BASE/.well-known/lowcostgpu-keys/$KEY_ID.pub > key.pub
signify-openbsd -V -p key.pub -m sheet.bytes                 # Signature Verified
)sh";

TEST_CASE("signify-openbsd verifies a sheet with the published key and refuses a changed byte")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const dir = scratch("signify");
    std::ofstream(dir + "/script.sh") << "cd " << dir << " || exit 99\nBASE=http://127.0.0.1:" << server.port()
                                      << "\nW=" << this_week() << "\n" << signify_commands;
    auto const good = run_shell("sh " + dir + "/script.sh 2>&1");
    INFO(good.out);
    CHECK(good.status == 0);
    CHECK(contains(good.out, "Signature Verified"));
    auto const bad = run_shell("cd " + dir + " && sed -i 's/^week /week  /' sheet.bytes && signify-openbsd -V -p key.pub -m sheet.bytes 2>&1");
    CHECK(bad.status != 0);
    CHECK(contains(bad.out, "signature verification failed"));
}

TEST_CASE("a mirror witnesses the log: it cosigns a consistent checkpoint and refuses one that shrank")
{
    test_database db, rolled_back;
    auto const dir = scratch("witness");
    REQUIRE(run_shell("cd " + dir + " && openssl genpkey -algorithm ed25519 -out witness.pem").status == 0);
    auto witness_args = [&](std::string const& upstream) {
        return serve_arguments{{"--upstream", upstream, "--upstream-keys", required_env("LCG_PUBLIC_KEYS_FILE"),
                                "--upstream-interval", "1", "--witness-checkpoint", dir + "/accepted.checkpoint",
                                "--witness-key", dir + "/witness.pem", "--witness-name", "witness.test/w1"}};
    };
    {
        server_process origin(db.url("reader"));
        server_process mirror(witness_args("http://127.0.0.1:" + std::to_string(origin.port())));
        auto const served = mirror.get("/v1/log/checkpoint").body;
        CHECK(contains(served, "\xe2\x80\x94 lowcostgpu.local/v1/log "));
        CHECK(contains(served, "\xe2\x80\x94 witness.test/w1 "));
        // Go's verifier takes the mirror's log as the origin's (the cosignature is an extra line).
        auto const go = verify(mirror, verifier_keys(origin), "-sheets");
        INFO(go.out);
        CHECK(go.status == 0);
        // A mirror of that mirror passes on the origin's signature, not a cosignature it cannot verify.
        server_process second(serve_arguments{{"--upstream", "http://127.0.0.1:" + std::to_string(mirror.port()),
                                               "--upstream-keys", required_env("LCG_PUBLIC_KEYS_FILE")}});
        auto const relayed = second.get("/v1/log/checkpoint").body;
        CHECK(relayed == served.substr(0, served.find("\xe2\x80\x94 witness.test/w1 ")));
        // A correction upstream: the mirror checks the longer log against the one it holds, and follows.
        REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", past_week(1), "--replace",
                                "--reason", "recomputed"})
                    .exit_code == 0);
        CHECK(eventually([&] { return log_size(mirror) == db.count("log_entry"); }, std::chrono::seconds(15)));
    }
    CHECK(contains(run_shell("sed -n 2p " + dir + "/accepted.checkpoint").out, std::to_string(db.count("log_entry"))));
    // Restarted on an origin whose log is one entry shorter (rolled back): refused, and /readyz says why.
    server_process origin(rolled_back.url("reader"));
    server_process mirror(witness_args("http://127.0.0.1:" + std::to_string(origin.port())), false);
    CHECK(eventually([&] { return contains(mirror.get("/readyz").body, "the log shrank"); }, std::chrono::seconds(15)));
    CHECK(mirror.get("/readyz").status == 503);
}

TEST_CASE("a mirror re-serves a version's signature only once it verifies, and reads no more of one than a signature takes")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::string const other = origin.get("/v1/log/entries/1/signature.txt").body;
    auto mirror_of = [&](fake_upstream const& upstream) {
        return serve_arguments{{"--upstream", upstream.url(), "--upstream-keys", required_env("LCG_PUBLIC_KEYS_FILE"),
                                "--upstream-interval", "1"}};
    };
    // A signature of another version, well formed: it does not cover version 0's bytes.
    auto const swapped = editing_proxy(origin, [&](std::string const& target, std::string& body) {
        if (target == "/v1/log/entries/0/signature.txt")
            body = other;
    });
    {
        server_process mirror(mirror_of(swapped), false);
        CHECK(eventually([&] { return contains(mirror.get("/readyz").body, "the upstream's signature of version 0"); },
                         std::chrono::seconds(15)));
        CHECK(mirror.get("/v1/log/entries/0/signature.txt").status != 200);
    }
    // A megabyte where 89 bytes belong: refused as it arrives, never held or served.
    auto const padded = editing_proxy(origin, [](std::string const& target, std::string& body) {
        if (target == "/v1/log/entries/0/signature.txt")
            body = std::string(1'000'000, 'A') + "\n";
    });
    server_process mirror(mirror_of(padded), false);
    CHECK(eventually([&] { return contains(mirror.get("/readyz").body, "larger than 128 bytes"); },
                     std::chrono::seconds(15)));
    CHECK(mirror.get("/v1/log/entries/0/signature.txt").status != 200);
}

TEST_CASE("a log proof's Last-Modified moves with the log, not with the catalog, so If-Modified-Since never keeps a stale one")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const catalog_time = server.get("/v1/gpus").header("last-modified");
    auto const size = log_size(server);
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", past_week(1), "--replace",
                            "--reason", "recomputed"})
                .exit_code == 0);
    REQUIRE(eventually([&] { return log_size(server) == size + 1; }, std::chrono::seconds(15)));
    auto const log_time = server.get("/v1/log").header("last-modified");
    REQUIRE(log_time != catalog_time);  // the correction left the catalog and the current prices alone
    CHECK(server.get("/v1/gpus").header("last-modified") == catalog_time);
    auto const proof = server.get("/v1/log/proof?from=1");
    CHECK(proof.status == 200);
    CHECK(proof.header("last-modified") == log_time);
}

TEST_CASE("after an unsigned publication the log still serves the tiles of the size its checkpoint signs")
{
    test_database db;
    long const signed_size = db.count("log_entry");
    REQUIRE(signed_size % 256 != 0);  // the checkpoint's tiles are partial ones
    auto const unsigned_run = run_shell("env -u LCG_SIGNING_KEY_FILE -u LCG_SIGNING_KEY " + required_env("LCG_BINARY") +
                                        " publish --unsigned --database-url " + db.url("publisher") + " --week " +
                                        past_week(1) + " --replace 2>&1");
    INFO(unsigned_run.out);
    REQUIRE(unsigned_run.status == 0);
    server_process server(db.url("reader"));
    CHECK(log_size(server) == signed_size);  // the new entry awaits the next signed checkpoint
    std::string const width = std::to_string(signed_size);
    CHECK(server.get("/v1/log/tile/entries/000.p/" + width).status == 200);
    CHECK(server.get("/v1/log/tile/0/000.p/" + width).status == 200);
    CHECK(server.get("/v1/log/tile/entries/000.p/" + std::to_string(signed_size + 1)).status == 200);
    auto const go = verify(server, verifier_keys(server));
    INFO(go.out);
    CHECK(go.status == 0);
}
