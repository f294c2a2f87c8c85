// The replay page of `pegsim replay`: a recording turned into the viewer's
// embedded data (format "pegsim-replay", docs/viewer.md) and one HTML file
// holding that data and the viewer bundle (viewer/, three.js), so the page
// opens offline from a file.
#pragma once

#include <cstddef>
#include <string>

namespace pegsim::cli {

struct ReplayData {
  std::string json;             // the "pegsim-replay" JSON document
  std::size_t rows = 0, bodies = 0, contacts = 0;
  bool contacts_included = true;
  bool complete = true;  // false: the writer never closed the file; `note` says so
  std::string note;
};

// Reads and checks the recording (read_recording(): the same checks as plot
// and Python's pegsim.read_recording);
// throws RecordingError naming the file and the object at fault. Contacts are
// left out (with a note in the page) when the recording has more than
// `max_contacts` of them, to keep the page small enough for a browser.
ReplayData replay_data(const std::string& recording, std::size_t max_contacts);

// The page: the bundle's script first, then the data, so a page cut short by
// a failed write still loads the viewer, which then names what is missing.
std::string replay_page(const std::string& title, const std::string& bundle, const std::string& data_json);

std::string base64(const void* data, std::size_t bytes);

}  // namespace pegsim::cli
